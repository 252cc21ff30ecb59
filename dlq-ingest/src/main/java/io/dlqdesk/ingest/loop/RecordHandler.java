package io.dlqdesk.ingest.loop;

import io.dlqdesk.ingest.classify.Classification;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/** The durable effect of one classified record. Idempotent; an exception means "transient, try again". */
@FunctionalInterface
public interface RecordHandler {

    void handle(ConsumerRecord<byte[], byte[]> record, Classification classification) throws Exception;
}

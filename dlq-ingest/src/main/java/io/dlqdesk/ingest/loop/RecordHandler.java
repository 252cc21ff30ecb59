package io.dlqdesk.ingest.loop;

import io.dlqdesk.ingest.classify.Classification;
import org.apache.kafka.clients.consumer.ConsumerRecord;

import java.util.List;

/**
 * The durable effect of one classified record. Idempotent; an exception means the write failed: the
 * loop retries transient failures without bound and the record's own a bounded number of times
 * ({@link WriteFailures}), then hands the record to the malformed policy.
 */
@FunctionalInterface
public interface RecordHandler {

    void handle(ConsumerRecord<byte[], byte[]> record, Classification classification) throws Exception;

    /** All or nothing, where the handler can do better than one by one (one transaction for many). */
    default void handleAll(List<Classified> records) throws Exception {
        for (Classified classified : records) {
            handle(classified.record(), classified.classification());
        }
    }

    record Classified(ConsumerRecord<byte[], byte[]> record, Classification classification) {
    }
}

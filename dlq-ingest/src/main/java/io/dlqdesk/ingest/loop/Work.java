package io.dlqdesk.ingest.loop;

import io.dlqdesk.ingest.classify.Classification;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/** One received record to write, with the assignment it was received under. Immutable. */
record Work(TopicPartition partition, Assignment assignment, ConsumerRecord<byte[], byte[]> record, Classification classification) {

    boolean current() {
        return assignment.current();
    }

    long offset() {
        return record.offset();
    }

    /** {@code topic-partition@offset}, as every log line names a record. */
    String where() {
        return partition + "@" + record.offset();
    }
}

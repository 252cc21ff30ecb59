package io.dlqdesk.ingest.loop;

import io.dlqdesk.ingest.classify.Classification;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Takes a poll's records in, on the loop thread: each is classified before it takes a worker slot. A record that is not
 * ours is complete at once; a malformed one under the pause-partition policy holds its partition; failures and
 * re-failures go to the workers in batches, the rest to a worker each.
 */
final class RecordIntake {

    private static final Logger log = LoggerFactory.getLogger(RecordIntake.class);

    /** Holds a partition at a record: the loop pauses and seeks its consumer. */
    interface Hold {
        void hold(TopicPartition partition, long offset, String reason);
    }

    private final Function<ConsumerRecord<byte[], byte[]>, Classification> classifier;
    private final LoopSettings settings;
    private final PartitionStates partitions;
    private final RecordWorkers workers;
    private final IngestMetrics metrics;
    private final Hold hold;

    RecordIntake(Function<ConsumerRecord<byte[], byte[]>, Classification> classifier, LoopSettings settings, PartitionStates partitions,
                 RecordWorkers workers, IngestMetrics metrics, Hold hold) {
        this.classifier = classifier;
        this.settings = settings;
        this.partitions = partitions;
        this.workers = workers;
        this.metrics = metrics;
        this.hold = hold;
    }

    void take(ConsumerRecords<byte[], byte[]> records) {
        dispatchInBatches(receive(records));
    }

    /** Classifies each record before it takes a slot; failures and re-failures are collected for batched writing, the rest go to a worker each. */
    private List<Work> receive(ConsumerRecords<byte[], byte[]> records) {
        List<Work> failures = new ArrayList<>();
        for (TopicPartition partition : records.partitions()) {
            for (ConsumerRecord<byte[], byte[]> record : records.records(partition)) {
                if (partitions.isHeld(partition)) {
                    break; // seeked back to the holding record: the rest comes again after it
                }
                receive(partition, record, failures);
            }
        }
        return failures;
    }

    private void receive(TopicPartition partition, ConsumerRecord<byte[], byte[]> record, List<Work> failures) {
        metrics.consumed();
        Classification classification = classifier.apply(record);
        if (classification instanceof Classification.NotOurs) {
            partitions.received(partition, record.offset());
            partitions.completedNow(partition, record.offset());
            metrics.ignored();
            return;
        }
        if (classification instanceof Classification.Malformed malformed && settings.malformedPolicy() == MalformedPolicy.PAUSE_PARTITION) {
            log.error("DLQ record {}@{} is malformed ({}); partition paused and nothing past it committed", partition, record.offset(), malformed.reason());
            hold.hold(partition, record.offset(), malformed.reason());
            return;
        }
        Work work = new Work(partition, partitions.received(partition, record.offset()), record, classification);
        if (classification instanceof Classification.Failure || classification instanceof Classification.RetryFailure) {
            failures.add(work);
        } else {
            workers.submit(work);
        }
    }

    private void dispatchInBatches(List<Work> failures) {
        for (int from = 0; from < failures.size(); from += settings.batchSize()) {
            workers.submitBatch(List.copyOf(failures.subList(from, Math.min(failures.size(), from + settings.batchSize()))));
        }
    }
}

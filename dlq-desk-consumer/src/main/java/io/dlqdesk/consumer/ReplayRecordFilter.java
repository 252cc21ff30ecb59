package io.dlqdesk.consumer;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * For a plain kafka-clients consumer: drops from a polled batch the (signed) replays meant for other
 * groups and counts them, and counts the replays it keeps. The skipped records are still consumed:
 * commit the consumer's position as usual
 * ({@code commitSync()} without arguments, or each partition's last <em>polled</em> offset + 1),
 * not the offset of the last record you processed, or the group re-reads them after a restart.
 * Thread-safe as far as its parts are; a consumer is used by one thread anyway.
 */
public final class ReplayRecordFilter {

    private final TargetGroupFilter filter;
    private final SkippedReplays skipped;

    public ReplayRecordFilter(TargetGroupFilter filter, SkippedReplays skipped) {
        this.filter = Objects.requireNonNull(filter, "filter");
        this.skipped = Objects.requireNonNull(skipped, "skipped");
        skipped.register(filter.groupId());
    }

    /** The batch's records this group must process, in poll order. */
    public <K, V> List<ConsumerRecord<K, V>> kept(ConsumerRecords<K, V> records) {
        List<ConsumerRecord<K, V>> kept = new ArrayList<>(records.count());
        for (ConsumerRecord<K, V> consumerRecord : records) {
            if (!skip(consumerRecord)) {
                kept.add(consumerRecord);
            }
        }
        return kept;
    }

    /** True for a replay meant for another group (counted as skipped); false for a record to process (a replay counted as kept). */
    public boolean skip(ConsumerRecord<?, ?> consumerRecord) {
        Decision decision = filter.decide(consumerRecord);
        skipped.add(filter.groupId(), TargetGroupFilter.targetGroup(consumerRecord.headers()).orElse(null), decision);
        return decision.skip();
    }

    public SkippedReplays skipped() {
        return skipped;
    }
}

package io.dlqdesk.consumer.spring;

import io.dlqdesk.consumer.ReplayRecordFilter;
import io.dlqdesk.consumer.SkippedReplays;
import io.dlqdesk.consumer.TargetGroupFilter;
import io.dlqdesk.consumer.TrustedOwners;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.kafka.listener.adapter.RecordFilterStrategy;
import org.springframework.kafka.support.KafkaUtils;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A Spring Kafka {@link RecordFilterStrategy} that discards replays the desk made for another
 * consumer group (see {@link TargetGroupFilter} for the rule). Use it with
 * {@code @KafkaListener(filter = "beanName")} or {@code factory.setRecordFilterStrategy(…)}.
 * <p>
 * The group is the one of the listener container calling it (Spring Kafka sets it on the consumer
 * thread), so one bean serves listeners of any group and cannot be configured with the wrong one.
 * Called where no container group is known, it keeps every record.
 * <p>
 * Discarded records are committed past with the default {@code AckMode.BATCH} and with the other
 * container-managed ack modes. With {@code MANUAL} or {@code MANUAL_IMMEDIATE}, set
 * {@code factory.setAckDiscarded(true)}, or a discarded record at the end of a partition stays
 * uncommitted (and, with {@code asyncAcks}, holds back the commits after it).
 */
public final class TargetGroupRecordFilter<K, V> implements RecordFilterStrategy<K, V> {

    private final TrustedOwners trustedOwners;
    private final SkippedReplays skipped;
    private final Map<String, ReplayRecordFilter> byGroup = new ConcurrentHashMap<>();

    /**
     * @param trustedOwners the desks whose replays for other groups are skipped
     * @param skipped       where skipped records are counted
     */
    public TargetGroupRecordFilter(TrustedOwners trustedOwners, SkippedReplays skipped) {
        this.trustedOwners = Objects.requireNonNull(trustedOwners, "trustedOwners");
        this.skipped = Objects.requireNonNull(skipped, "skipped");
    }

    /** Skips replays for other groups from any owner; counts on Micrometer's global registry when present. */
    public TargetGroupRecordFilter() {
        this(TrustedOwners.any(), SkippedReplays.create());
    }

    @Override
    public boolean filter(ConsumerRecord<K, V> consumerRecord) {
        String group = KafkaUtils.getConsumerGroupId();
        if (group == null || group.isBlank()) {
            return false; // whose consumer this is is unknown: keep
        }
        return byGroup.computeIfAbsent(group, own -> new ReplayRecordFilter(new TargetGroupFilter(own, trustedOwners), skipped))
                .skip(consumerRecord);
    }

    public SkippedReplays skipped() {
        return skipped;
    }
}

package io.dlqdesk.consumer.spring;

import io.dlqdesk.consumer.ReplayKeys;
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
 * A Spring Kafka {@link RecordFilterStrategy} that discards replays the desk made (and signed) for
 * another consumer group (see {@link TargetGroupFilter} for the rule). Use it with
 * {@code @KafkaListener(filter = "beanName")} or {@code factory.setRecordFilterStrategy(…)}.
 * <p>
 * The group is the one of the listener container calling it (Spring Kafka sets it on the consumer
 * thread), so one bean serves listeners of any group and cannot be configured with the wrong one.
 * Called where no container group is known, it keeps every record; without keys it keeps every record too.
 * <p>
 * Discarded records are committed past with the default {@code AckMode.BATCH} and with the other
 * container-managed ack modes. With {@code MANUAL} or {@code MANUAL_IMMEDIATE}, set
 * {@code factory.setAckDiscarded(true)}, or a discarded record at the end of a partition stays
 * uncommitted (and, with {@code asyncAcks}, holds back the commits after it).
 */
public final class TargetGroupRecordFilter<K, V> implements RecordFilterStrategy<K, V> {

    private final ReplayKeys keys;
    private final TrustedOwners trustedOwners;
    private final SkippedReplays skipped;
    private final Map<String, ReplayRecordFilter> byGroup = new ConcurrentHashMap<>();

    /**
     * @param keys          the keys whose replay signatures are accepted (the desk's {@code dlqdesk.replay.signing.keys})
     * @param trustedOwners the desks whose replays for other groups are skipped
     * @param skipped       where skipped and kept replays are counted
     */
    public TargetGroupRecordFilter(ReplayKeys keys, TrustedOwners trustedOwners, SkippedReplays skipped) {
        this.keys = Objects.requireNonNull(keys, "keys");
        this.trustedOwners = Objects.requireNonNull(trustedOwners, "trustedOwners");
        this.skipped = Objects.requireNonNull(skipped, "skipped");
    }

    /** Skips replays for other groups signed under one of the keys, from any owner; counts on Micrometer's global registry when present. */
    public TargetGroupRecordFilter(ReplayKeys keys) {
        this(keys, TrustedOwners.any(), SkippedReplays.create());
    }

    @Override
    public boolean filter(ConsumerRecord<K, V> consumerRecord) {
        String group = KafkaUtils.getConsumerGroupId();
        if (group == null || group.isBlank()) {
            return false; // whose consumer this is is unknown: keep
        }
        return byGroup.computeIfAbsent(group, own -> new ReplayRecordFilter(new TargetGroupFilter(own, keys, trustedOwners), skipped))
                .skip(consumerRecord);
    }

    public SkippedReplays skipped() {
        return skipped;
    }
}

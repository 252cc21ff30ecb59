package io.dlqdesk.consumer;

import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.dlqdesk.consumer.TargetGroupFilterTest.headers;
import static org.assertj.core.api.Assertions.assertThat;

class ReplayRecordFilterTest {

    private static final TopicPartition ORDERS_0 = new TopicPartition("orders", 0);

    @Test
    void aPolledBatchKeepsEverythingButReplaysForOtherGroupsInOrderAndCountsThoseSkipped() {
        SkippedReplays skipped = SkippedReplays.inMemory();
        ReplayRecordFilter filter = new ReplayRecordFilter(TargetGroupFilter.forGroup("shipping"), skipped);
        ConsumerRecords<String, String> batch = new ConsumerRecords<>(Map.of(ORDERS_0, List.of(
                record(0, "plain", new RecordHeaders()),
                record(1, "for-billing", headers("billing", "desk-prod")),
                record(2, "for-shipping", headers("shipping", "desk-prod")),
                record(3, "for-billing-again", headers("billing", "desk-prod")))));

        assertThat(filter.kept(batch)).extracting(ConsumerRecord::value).containsExactly("plain", "for-shipping");
        assertThat(skipped.count()).isEqualTo(2);
    }

    @Test
    void aKeptRecordIsNotCounted() {
        ReplayRecordFilter filter = new ReplayRecordFilter(TargetGroupFilter.forGroup("billing"), SkippedReplays.inMemory());

        assertThat(filter.skip(record(0, "for-billing", headers("billing", "desk-prod")))).isFalse();
        assertThat(filter.skipped().count()).isZero();
    }

    @Test
    void skippedRecordsAreCountedOnMicrometerByGroupAndTargetGroup() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        SkippedReplays skipped = MicrometerSkippedReplays.countingOn(registry);
        ReplayRecordFilter shipping = new ReplayRecordFilter(TargetGroupFilter.forGroup("shipping"), skipped);
        ReplayRecordFilter billing = new ReplayRecordFilter(TargetGroupFilter.forGroup("billing"), skipped);

        shipping.skip(record(0, "for-billing", headers("billing", "desk-prod")));
        shipping.skip(record(1, "for-billing", headers("billing", "desk-prod")));
        billing.skip(record(2, "for-shipping", headers("shipping", "desk-prod")));
        billing.skip(record(3, "for-billing", headers("billing", "desk-prod")));

        assertThat(registry.get(MicrometerSkippedReplays.METER).tags("group", "shipping", "target_group", "billing").counter().count())
                .isEqualTo(2.0);
        assertThat(registry.get(MicrometerSkippedReplays.METER).tags("group", "billing", "target_group", "shipping").counter().count())
                .isEqualTo(1.0);
        assertThat(registry.find(MicrometerSkippedReplays.METER).tags("group", "billing", "target_group", "billing").counter()).isNull();
        assertThat(skipped.count()).isEqualTo(3);
    }

    @Test
    void byDefaultSkippedRecordsAreCountedOnMicrometersGlobalRegistryWhereMicrometerIsPresent() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Metrics.addRegistry(registry);
        try {
            new ReplayRecordFilter(TargetGroupFilter.forGroup("shipping"), SkippedReplays.create())
                    .skip(record(0, "for-billing", headers("billing", "desk-prod")));

            assertThat(registry.get(MicrometerSkippedReplays.METER).tags("group", "shipping").counter().count()).isEqualTo(1.0);
        } finally {
            Metrics.removeRegistry(registry);
        }
    }

    static ConsumerRecord<String, String> record(long offset, String value, Headers headers) {
        return new ConsumerRecord<>(ORDERS_0.topic(), ORDERS_0.partition(), offset, 0L, TimestampType.CREATE_TIME,
                -1, -1, null, value, headers, Optional.empty());
    }
}

package io.dlqdesk.consumer;

import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.dlqdesk.consumer.TestReplays.KEY_1;
import static io.dlqdesk.consumer.TestReplays.headers;
import static io.dlqdesk.consumer.TestReplays.replay;
import static io.dlqdesk.consumer.TestReplays.signed;
import static io.dlqdesk.consumer.TestReplays.signedReplay;
import static io.dlqdesk.consumer.TestReplays.utf8;
import static org.assertj.core.api.Assertions.assertThat;

class ReplayRecordFilterTest {

    private static final TopicPartition ORDERS_0 = new TopicPartition("orders", 0);

    @Test
    void aPolledBatchKeepsEverythingButSignedReplaysForOtherGroupsInOrderAndCountsThoseSkipped() {
        SkippedReplays skipped = SkippedReplays.inMemory();
        ReplayRecordFilter filter = new ReplayRecordFilter(TargetGroupFilter.forGroup("shipping", KEY_1), skipped);
        ConsumerRecords<String, String> batch = new ConsumerRecords<>(Map.of(ORDERS_0, List.of(
                record(0, "plain", new RecordHeaders()),
                record(1, "for-billing", signedHeaders(1, "for-billing", "billing")),
                record(2, "for-shipping", signedHeaders(2, "for-shipping", "shipping")),
                record(3, "forged-for-billing", headers("billing", "desk-prod")),
                record(4, "for-billing-again", signedHeaders(4, "for-billing-again", "billing")))));

        assertThat(filter.kept(batch)).extracting(ConsumerRecord::value).containsExactly("plain", "for-shipping", "forged-for-billing");
        assertThat(skipped.count()).isEqualTo(2);
        assertThat(skipped.keptCount()).as("the replay for shipping and the forged one; not the plain record").isEqualTo(2);
    }

    @Test
    void aKeptRecordIsNotCountedAsSkipped() {
        ReplayRecordFilter filter = new ReplayRecordFilter(TargetGroupFilter.forGroup("billing", KEY_1), SkippedReplays.inMemory());

        assertThat(filter.skip(signedReplay("billing", "desk-prod"))).isFalse();
        assertThat(filter.skipped().count()).isZero();
        assertThat(filter.skipped().keptCount()).isEqualTo(1);
    }

    @Test
    void skippedRecordsAreCountedOnMicrometerByGroupAndTargetGroup() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        SkippedReplays skipped = MicrometerSkippedReplays.countingOn(registry);
        ReplayRecordFilter shipping = new ReplayRecordFilter(TargetGroupFilter.forGroup("shipping", KEY_1), skipped);
        ReplayRecordFilter billing = new ReplayRecordFilter(TargetGroupFilter.forGroup("billing", KEY_1), skipped);

        shipping.skip(signedReplay("billing", "desk-prod"));
        shipping.skip(signedReplay("billing", "desk-prod"));
        billing.skip(signedReplay("shipping", "desk-prod"));
        billing.skip(signedReplay("billing", "desk-prod"));

        assertThat(registry.get(MicrometerSkippedReplays.METER).tags("group", "shipping", "target_group", "billing").counter().count())
                .isEqualTo(2.0);
        assertThat(registry.get(MicrometerSkippedReplays.METER).tags("group", "billing", "target_group", "shipping").counter().count())
                .isEqualTo(1.0);
        assertThat(registry.find(MicrometerSkippedReplays.METER).tags("group", "billing", "target_group", "billing").counter()).isNull();
        assertThat(registry.get(MicrometerSkippedReplays.KEPT_METER).tags("group", "billing", "target_group", "billing",
                "decision", "KEEP_OWN_GROUP").counter().count()).isEqualTo(1.0);
        assertThat(skipped.count()).isEqualTo(3);
    }

    @Test
    void aForgedReplayIsProcessedAndCountedAsKeptUnsigned() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        ReplayRecordFilter shipping = new ReplayRecordFilter(TargetGroupFilter.forGroup("shipping", KEY_1), MicrometerSkippedReplays.countingOn(registry));

        assertThat(shipping.skip(replay("billing", "desk-prod"))).isFalse();

        assertThat(registry.get(MicrometerSkippedReplays.KEPT_METER).tags("group", "shipping", "target_group", "other",
                "decision", "KEEP_UNSIGNED").counter().count()).isEqualTo(1.0);
        assertThat(registry.find(MicrometerSkippedReplays.METER).counter()).isNull();
    }

    @Test
    void aTargetGroupOutsideTheServicesGroupsIsTaggedOther() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        ReplayRecordFilter shipping = new ReplayRecordFilter(TargetGroupFilter.forGroup("shipping", KEY_1), MicrometerSkippedReplays.countingOn(registry));

        assertThat(shipping.skip(signedReplay("billing", "desk-prod"))).isTrue();

        assertThat(registry.get(MicrometerSkippedReplays.METER).tags("group", "shipping", "target_group", "other").counter().count()).isEqualTo(1.0);
    }

    @Test
    void thousandsOfHostileTargetGroupsMakeABoundedNumberOfSeries() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        SkippedReplays counted = MicrometerSkippedReplays.countingOn(registry);
        ReplayRecordFilter shipping = new ReplayRecordFilter(TargetGroupFilter.forGroup("shipping", KEY_1), counted);
        ReplayRecordFilter billing = new ReplayRecordFilter(TargetGroupFilter.forGroup("billing", KEY_1), counted);

        for (int i = 0; i < 2_000; i++) {
            String hostile = "group-" + i + "\u202e" + "x".repeat(i % 300);
            shipping.skip(replay(hostile, "desk-prod"));                           // forged: kept
            billing.skip(signedReplay(hostile, "desk-prod"));                      // even signed: skipped
            ConsumerRecord<byte[], byte[]> badlySigned = replay(hostile, "desk-prod");
            badlySigned.headers().add(ReplayHeaderNames.SIGNATURE, utf8("v1:k1:" + "A".repeat(43)));
            shipping.skip(badlySigned);                                            // kept, bad signature
        }

        assertThat(counted.count()).isEqualTo(2_000);
        assertThat(counted.keptCount()).isEqualTo(4_000);
        assertThat(registry.getMeters()).as("one series per group, target group (own groups or other) and decision")
                .hasSizeLessThanOrEqualTo(3);
        assertThat(registry.getMeters()).flatExtracting(meter -> meter.getId().getTags())
                .allSatisfy(tag -> assertThat(tag.getValue()).isIn("shipping", "billing", "other", "KEEP_UNSIGNED", "KEEP_BAD_SIGNATURE"));
    }

    @Test
    void byDefaultSkippedRecordsAreCountedOnMicrometersGlobalRegistryWhereMicrometerIsPresent() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Metrics.addRegistry(registry);
        try {
            new ReplayRecordFilter(TargetGroupFilter.forGroup("shipping", KEY_1), SkippedReplays.create())
                    .skip(signedReplay("billing", "desk-prod"));

            assertThat(registry.get(MicrometerSkippedReplays.METER).tags("group", "shipping").counter().count()).isEqualTo(1.0);
        } finally {
            Metrics.removeRegistry(registry);
        }
    }

    private static Headers signedHeaders(long offset, String value, String targetGroup) {
        ConsumerRecord<String, String> record = signed(record(offset, value, headers(targetGroup, "desk-prod")), KEY_1, "k1");
        return record.headers();
    }

    private static ConsumerRecord<String, String> record(long offset, String value, Headers headers) {
        return TestReplays.record(ORDERS_0.topic(), ORDERS_0.partition(), offset, null, value, headers);
    }
}

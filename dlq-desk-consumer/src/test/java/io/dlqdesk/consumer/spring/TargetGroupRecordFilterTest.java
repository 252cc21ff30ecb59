package io.dlqdesk.consumer.spring;

import io.dlqdesk.consumer.ReplayHeaderNames;
import io.dlqdesk.consumer.ReplayKeys;
import io.dlqdesk.consumer.SkippedReplays;
import io.dlqdesk.consumer.TrustedOwners;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.support.KafkaUtils;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** The group comes from the listener thread, as Spring Kafka's container sets it; the IT runs real containers. */
class TargetGroupRecordFilterTest {

    private static final ReplayKeys KEYS = ReplayKeys.of("k1", "an-example-secret-of-at-least-32-bytes");

    private final TargetGroupRecordFilter<String, String> filter = new TargetGroupRecordFilter<>(KEYS, TrustedOwners.any(), SkippedReplays.inMemory());

    @AfterEach
    void clearGroup() {
        KafkaUtils.clearConsumerGroupId();
    }

    @Test
    void onAListenerThreadOfAnotherGroupAReplayIsDiscardedAndCounted() {
        KafkaUtils.setConsumerGroupId("shipping");

        assertThat(filter.filter(replayFor("billing"))).isTrue();
        assertThat(filter.skipped().count()).isEqualTo(1);
    }

    @Test
    void onAListenerThreadOfTheTargetGroupAReplayIsKept() {
        KafkaUtils.setConsumerGroupId("billing");

        assertThat(filter.filter(replayFor("billing"))).isFalse();
        assertThat(filter.skipped().count()).isZero();
    }

    @Test
    void whereNoListenerGroupIsKnownEveryReplayIsKept() {
        assertThat(filter.filter(replayFor("billing"))).isFalse();
    }

    @Test
    void onAListenerThreadOfAnotherGroupAnUnsignedReplayIsKept() {
        KafkaUtils.setConsumerGroupId("shipping");
        ConsumerRecord<String, String> forged = replayFor("billing");
        forged.headers().remove(ReplayHeaderNames.SIGNATURE);

        assertThat(filter.filter(forged)).isFalse();
        assertThat(filter.skipped().keptCount()).isEqualTo(1);
    }

    @Test
    void withoutKeysNothingIsDiscarded() {
        KafkaUtils.setConsumerGroupId("shipping");

        assertThat(new TargetGroupRecordFilter<String, String>(ReplayKeys.none(), TrustedOwners.any(), SkippedReplays.inMemory())
                .filter(replayFor("billing"))).isFalse();
    }

    private static ConsumerRecord<String, String> replayFor(String group) {
        RecordHeaders headers = new RecordHeaders();
        headers.add(ReplayHeaderNames.TARGET_GROUP, group.getBytes(StandardCharsets.UTF_8));
        headers.add(ReplayHeaderNames.SIGNATURE, KEYS.sign("k1", "orders", 0, null, "v".getBytes(StandardCharsets.UTF_8), headers)
                .getBytes(StandardCharsets.UTF_8));
        return new ConsumerRecord<>("orders", 0, 0L, 0L, TimestampType.CREATE_TIME, -1, -1, null, "v", headers, Optional.empty());
    }
}

package io.dlqdesk.consumer.spring;

import io.dlqdesk.consumer.ReplayHeaderNames;
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

    private final TargetGroupRecordFilter<String, String> filter = new TargetGroupRecordFilter<>(TrustedOwners.any(), SkippedReplays.inMemory());

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

    private static ConsumerRecord<String, String> replayFor(String group) {
        RecordHeaders headers = new RecordHeaders();
        headers.add(ReplayHeaderNames.TARGET_GROUP, group.getBytes(StandardCharsets.UTF_8));
        return new ConsumerRecord<>("orders", 0, 0L, 0L, TimestampType.CREATE_TIME, -1, -1, null, "v", headers, Optional.empty());
    }
}

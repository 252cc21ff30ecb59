package io.dlqdesk.app;

import io.dlqdesk.consumer.Decision;
import io.dlqdesk.consumer.ReplayKeys;
import io.dlqdesk.consumer.TargetGroupFilter;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.domain.record.PayloadHash;
import io.dlqdesk.domain.record.RecordKey;
import io.dlqdesk.domain.replay.ReplayHeaders;
import io.dlqdesk.replay.outbox.OutboxRow;
import io.dlqdesk.replay.outbox.ReplayPublisher;
import io.dlqdesk.replay.outbox.ReplaySigner;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The desk (replay-saga's ReplaySigner) and dlq-desk-consumer each have a copy of the signature format, as they may
 * not depend on each other; here, where both are visible, what the desk's publisher signs the consumer verifies.
 */
class SignedReplayHeadersTest {

    private static final String SECRET = "an-example-secret-of-at-least-32-bytes";
    private static final ReplayPublisher DESK = new ReplayPublisher("127.0.0.1:1", "test", Duration.ofSeconds(1), 1 << 20, Set.of(),
            ReplaySigner.of("k1", SECRET));
    private static final ReplayKeys CONSUMER_KEYS = ReplayKeys.of("k1", SECRET);

    record Case(String topic, int partition, byte[] key, byte[] value, String targetGroup, int attempt) {
    }

    @Test
    void whatTheDeskSignsTheConsumerLibraryVerifies() {
        List<Case> cases = List.of(
                new Case("orders", 0, utf8("order-1"), utf8("{\"order\":1}"), "billing", 1),
                new Case("orders", 11, null, new byte[] {(byte) 0xC3, 0x28, (byte) 0xFF, 0x00}, "billing", 3), // no key, not UTF-8
                new Case("orders.v2", 2, new byte[0], new byte[0], "facturación-ñ", 100),
                new Case("o", 2_147_483_647, utf8("k"), null, "g", 2)); // a tombstone
        for (Case replayCase : cases) {
            ConsumerRecord<byte[], byte[]> received = received(DESK.replayOf(source(replayCase), row(replayCase)));

            assertThat(received.headers().lastHeader(ReplayHeaders.SIGNATURE)).isNotNull();
            assertThat(TargetGroupFilter.forGroup("shipping", CONSUMER_KEYS).decide(received)).as(replayCase.toString())
                    .isEqualTo(Decision.SKIP_OTHER_GROUP);
            assertThat(TargetGroupFilter.forGroup(replayCase.targetGroup(), CONSUMER_KEYS).decide(received)).as(replayCase.toString())
                    .isEqualTo(Decision.KEEP_OWN_GROUP);
        }
    }

    @Test
    void aReplayFromAnUnsignedDeskIsProcessedByEveryGroup() {
        ReplayPublisher unsigned = new ReplayPublisher("127.0.0.1:1", "test", Duration.ofSeconds(1), 1 << 20, Set.of());
        Case replayCase = new Case("orders", 0, utf8("order-1"), utf8("{}"), "billing", 1);

        ConsumerRecord<byte[], byte[]> received = received(unsigned.replayOf(source(replayCase), row(replayCase)));

        assertThat(TargetGroupFilter.forGroup("shipping", CONSUMER_KEYS).decide(received)).isEqualTo(Decision.KEEP_UNSIGNED);
    }

    private static ConsumerRecord<byte[], byte[]> source(Case replayCase) {
        return new ConsumerRecord<>(replayCase.topic(), replayCase.partition(), 5L, 1L, TimestampType.CREATE_TIME, -1, -1,
                replayCase.key(), replayCase.value(), new RecordHeaders(), Optional.empty());
    }

    private static OutboxRow row(Case replayCase) {
        IncidentId id = IncidentId.of(new FailureKey(replayCase.topic(), replayCase.partition(), 5L, replayCase.targetGroup()));
        return new OutboxRow(id.replayId(replayCase.attempt()), id, replayCase.attempt(),
                new FailureKey(replayCase.topic(), replayCase.partition(), 5L, replayCase.targetGroup()).location(),
                RecordKey.of(replayCase.key()),
                PayloadHash.of(replayCase.value() == null ? new byte[0] : replayCase.value()), replayCase.targetGroup(), "dlq-incident-desk",
                OutboxRow.Status.PENDING, 0, null, null, null, null);
    }

    /** The replay as a consumer polls it: same topic, partition, key, value and headers. */
    private static ConsumerRecord<byte[], byte[]> received(ProducerRecord<byte[], byte[]> replay) {
        return new ConsumerRecord<>(replay.topic(), replay.partition(), 9L, 1L, TimestampType.CREATE_TIME, -1, -1, replay.key(),
                replay.value(), new RecordHeaders(replay.headers().toArray()), Optional.empty());
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}

package io.dlqdesk.replay.outbox;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.domain.record.PayloadHash;
import io.dlqdesk.domain.record.RecordKey;
import io.dlqdesk.domain.replay.ReplayHeaders;
import io.dlqdesk.replay.edit.EditedContent;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class ReplayPublisherTest {

    private static final FailureKey ROOT = new FailureKey("orders", 4, 17L, "billing");
    private static final IncidentId ID = IncidentId.of(ROOT);
    private static final byte[] VALUE = {(byte) 0xFF, 0x00, (byte) 0x80};
    private static final OutboxRow ROW = new OutboxRow(ID.replayId(2), ID, 2, ROOT.location(), RecordKey.of(new byte[] {7}),
            PayloadHash.of(VALUE), "billing", "desk-eu", OutboxRow.Status.PENDING, 0, null, null, null, null);

    private final ReplayPublisher publisher = new ReplayPublisher("127.0.0.1:1", "test", Duration.ofSeconds(1), 1 << 20,
            Set.of("traceparent", "X-B3-TraceId"));

    @Test
    void theReplayIsTheOriginalRecordToItsPartitionPlusTheFourCorrelationHeaders() {
        RecordHeaders headers = new RecordHeaders();
        headers.add("eventId", utf8("evt-9"));
        headers.add("tenant", utf8("acme"));
        headers.add("empty", null);
        ConsumerRecord<byte[], byte[]> source = new ConsumerRecord<>("orders", 4, 17L, 1_700_000_000_123L, TimestampType.CREATE_TIME,
                1, VALUE.length, new byte[] {7}, VALUE, headers, Optional.empty());

        ProducerRecord<byte[], byte[]> replay = publisher.replayOf(source, ROW);

        assertThat(replay.topic()).isEqualTo("orders");
        assertThat(replay.partition()).isEqualTo(4);
        assertThat(replay.timestamp()).isEqualTo(1_700_000_000_123L);
        assertThat(replay.key()).isEqualTo(new byte[] {7});
        assertThat(replay.value()).isEqualTo(VALUE);
        assertThat(names(replay)).containsExactly("eventId", "tenant", "empty", ReplayHeaders.ROOT_INCIDENT_ID, ReplayHeaders.ATTEMPT,
                ReplayHeaders.OWNER, ReplayHeaders.TARGET_GROUP);
        assertThat(text(replay, ReplayHeaders.ROOT_INCIDENT_ID)).isEqualTo(ID.value());
        assertThat(text(replay, ReplayHeaders.ATTEMPT)).isEqualTo("2");
        assertThat(text(replay, ReplayHeaders.OWNER)).isEqualTo("desk-eu");
        assertThat(text(replay, ReplayHeaders.TARGET_GROUP)).isEqualTo("billing");
        assertThat(replay.headers().lastHeader("empty").value()).isNull();
    }

    @Test
    void deniedHeadersIgnoringCaseAndStaleCorrelationOrDltHeadersAreNotCopied() {
        RecordHeaders headers = new RecordHeaders();
        headers.add("TraceParent", utf8("00-abc"));
        headers.add("x-b3-traceid", utf8("abc"));
        headers.add(ReplayHeaders.ATTEMPT, utf8("9"));
        headers.add("kafka_dlt-original-topic", utf8("elsewhere"));
        headers.add("traceparent-copy", utf8("kept: only exact names are denied"));
        ConsumerRecord<byte[], byte[]> source = new ConsumerRecord<>("orders", 4, 17L, 1L, TimestampType.CREATE_TIME, 1, VALUE.length,
                new byte[] {7}, VALUE, headers, Optional.empty());

        ProducerRecord<byte[], byte[]> replay = publisher.replayOf(source, ROW);

        assertThat(names(replay)).containsExactly("traceparent-copy", ReplayHeaders.ROOT_INCIDENT_ID, ReplayHeaders.ATTEMPT,
                ReplayHeaders.OWNER, ReplayHeaders.TARGET_GROUP);
        assertThat(text(replay, ReplayHeaders.ATTEMPT)).isEqualTo("2");
    }

    @Test
    void anApprovedEditReplacesValueAndHeadersTheDeniedOnesStillLeftOutAndKeyTimeAndPartitionStayTheRecords() {
        RecordHeaders headers = new RecordHeaders();
        headers.add("tenant", utf8("eu"));
        ConsumerRecord<byte[], byte[]> source = new ConsumerRecord<>("orders", 4, 17L, 1_700_000_000_123L, TimestampType.CREATE_TIME,
                1, VALUE.length, new byte[] {7}, VALUE, headers, Optional.empty());
        EditedContent edit = new EditedContent(utf8("{\"qty\":1}"), List.of(new EditedContent.Header("tenant", utf8("de")),
                new EditedContent.Header("traceparent", utf8("00-abc"))));

        ProducerRecord<byte[], byte[]> replay = publisher.replayOf(source, ROW, edit);

        assertThat(replay.value()).isEqualTo(utf8("{\"qty\":1}"));
        assertThat(replay.key()).isEqualTo(new byte[] {7});
        assertThat(replay.timestamp()).isEqualTo(1_700_000_000_123L);
        assertThat(replay.partition()).isEqualTo(4);
        assertThat(names(replay)).containsExactly("tenant", ReplayHeaders.ROOT_INCIDENT_ID, ReplayHeaders.ATTEMPT, ReplayHeaders.OWNER,
                ReplayHeaders.TARGET_GROUP);
        assertThat(text(replay, "tenant")).isEqualTo("de");
        // an edit of the value alone keeps the record's headers
        ProducerRecord<byte[], byte[]> valueOnly = publisher.replayOf(source, ROW, new EditedContent(utf8("{}"), null));
        assertThat(text(valueOnly, "tenant")).isEqualTo("eu");
        assertThat(valueOnly.value()).isEqualTo(utf8("{}"));
    }

    /** The expected value is computed apart from this code (Python's hmac over the documented encoding), as in dlq-desk-consumer's ReplayKeysTest. */
    @Test
    void withASigningKeyTheReplayCarriesTheSignatureOfItsHeadersAndRecordLast() {
        IncidentId id = IncidentId.parse("inc-0123456789abcdef0123456789abcdef");
        OutboxRow row = new OutboxRow(id.replayId(2), id, 2, ROOT.location(), RecordKey.of(new byte[] {7}), PayloadHash.of(VALUE), "billing",
                "desk-eu", OutboxRow.Status.PENDING, 0, null, null, null, null);
        RecordHeaders headers = new RecordHeaders();
        headers.add("eventId", utf8("evt-9"));
        headers.add(ReplayHeaders.SIGNATURE, utf8("v1:k1:stale-from-an-earlier-replay"));
        ConsumerRecord<byte[], byte[]> source = new ConsumerRecord<>("orders", 4, 17L, 1L, TimestampType.CREATE_TIME, 1, VALUE.length,
                new byte[] {7}, VALUE, headers, Optional.empty());
        ReplayPublisher signing = new ReplayPublisher("127.0.0.1:1", "test", Duration.ofSeconds(1), 1 << 20, Set.of(),
                ReplaySigner.of("k1", "an-example-secret-of-at-least-32-bytes"));

        ProducerRecord<byte[], byte[]> replay = signing.replayOf(source, row);

        assertThat(names(replay)).containsExactly("eventId", ReplayHeaders.ROOT_INCIDENT_ID, ReplayHeaders.ATTEMPT, ReplayHeaders.OWNER,
                ReplayHeaders.TARGET_GROUP, ReplayHeaders.SIGNATURE);
        assertThat(text(replay, ReplayHeaders.SIGNATURE)).isEqualTo("v1:k1:-hnVpfjHv449buMDHhQVpNN8gFfJ8bxj1R4x7j7kwQ0");
    }

    @Test
    void withoutASigningKeyTheReplayCarriesNoSignature() {
        ConsumerRecord<byte[], byte[]> source = new ConsumerRecord<>("orders", 4, 17L, 1L, TimestampType.CREATE_TIME, 1, VALUE.length,
                new byte[] {7}, VALUE, new RecordHeaders(), Optional.empty());

        assertThat(publisher.replayOf(source, ROW).headers().lastHeader(ReplayHeaders.SIGNATURE)).isNull();
    }

    @Test
    void aSendThatCannotReachTheBrokerFailsWithinItsBound() {
        ProducerRecord<byte[], byte[]> record = new ProducerRecord<>("orders", 0, new byte[] {1}, new byte[] {2});
        long started = System.nanoTime();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> publisher.send(record))
                .isInstanceOf(ReplayPublisher.PublishFailedException.class);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(30));
        publisher.close();
    }

    private static String[] names(ProducerRecord<byte[], byte[]> record) {
        return Arrays.stream(record.headers().toArray()).map(Header::key).toArray(String[]::new);
    }

    private static String text(ProducerRecord<byte[], byte[]> record, String name) {
        return new String(record.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}

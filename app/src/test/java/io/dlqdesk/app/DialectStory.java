package io.dlqdesk.app;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.domain.record.RecordLocation;
import io.dlqdesk.domain.replay.ReplayHeaders;
import io.dlqdesk.testsupport.KafkaBroker;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.springframework.context.ConfigurableApplicationContext;

import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What ConnectDlqIT and StreamsDlqIT prove of their writer, step by step: the same story for every dialect, told
 * against the writer each test runs.
 */
final class DialectStory {

    private static final Duration WAIT = Duration.ofSeconds(60);

    /** How a test holds its writer off the source topic, lets it go, and sees what it processed. */
    interface Writer {
        void hold() throws Exception;

        void release() throws Exception;

        /** The values it has processed (not dead-lettered), as UTF-8 text. */
        List<String> processed() throws Exception;
    }

    /**
     * A desk reading the writer's DLQ topic {@code dlq}, the writer consuming {@code source} as {@code group}, marking
     * every failure {@code dialect}; its location headers are {@code offsetHeader} and {@code partitionHeader}.
     */
    record Desk(ConfigurableApplicationContext app, KafkaBroker broker, KafkaProducer<byte[], byte[]> producer, String source,
                String dlq, String group, String dialect, String offsetHeader, String partitionHeader) {
    }

    private DialectStory() {
    }

    /**
     * A record whose value holds {@code marker} fails: an incident of the group, read as the dialect. Acknowledged and
     * replayed while the writer is held: byte-identical on the source partition. Resolved, then the writer let go: it
     * fails again, the re-failure carries the replay's headers, is correlated and reopens the incident. Fixed (the
     * markers file rewritten to {@code markersLeft}), a second replay is processed.
     */
    static void failReplayReFailFix(Desk desk, Writer writer, String eventId, String marker, Path markers, String markersLeft)
            throws Exception {
        ConfigurableApplicationContext app = desk.app();
        byte[] key = {(byte) 0xC3, 0x28, 0x00, (byte) 0xFF, 'k'}; // not UTF-8
        byte[] value = ("{\"order\":7,\"note\":\"" + marker + "\"}").getBytes(StandardCharsets.UTF_8);
        long timestamp = Instant.now().minusSeconds(120).toEpochMilli();
        RecordMetadata source = desk.producer().send(Replays.record(desk.source(), 1, timestamp, key, value, eventId)).get(30, TimeUnit.SECONDS);
        String id = IncidentId.of(new FailureKey(desk.source(), 1, source.offset(), desk.group())).value();
        await().atMost(WAIT).until(() -> Replays.incidentsOf(app, desk.source()).contains(id));
        assertThat(RunningApp.get(app, "/api/v1/incidents/" + id, "viewer", RunningApp.PASSWORD).body()).contains(
                "\"dlqDialect\":\"" + desk.dialect() + "\"", "\"consumerGroup\":\"" + desk.group() + "\"", "\"eventId\":\"" + eventId + "\"",
                "\"originalLocationKnown\":true", "\"exceptionClass\":\"java.lang.IllegalStateException\"");
        await().atMost(WAIT).untilAsserted(() -> assertThat(RunningApp.get(app, "/api/v1/incidents/" + id + "/history", "viewer",
                RunningApp.PASSWORD).body()).contains("read from a " + desk.dialect().toLowerCase(java.util.Locale.ROOT)
                + " DLQ record: source timestamp type not written"));

        assertThat(RunningApp.post(app, "/api/v1/incidents/" + id + "/acknowledge", "operator", "{\"reason\":\"mine\"}").statusCode())
                .isEqualTo(204);
        writer.hold(); // the replay waits in the topic until the incident is closed
        ConsumerRecord<byte[], byte[]> replay;
        try {
            replay = replayWhileHeld(desk, id, source, key, value, timestamp, eventId);
        } finally {
            writer.release(); // it fails on the replay too; its DLQ record carries the replay's headers, so the nine checks hold
        }
        await().atMost(WAIT).until(() -> Replays.events(app, id, "RetryFailureCorrelated") >= 1);
        assertThat(Replays.events(app, id, "IncidentReopened")).isGreaterThanOrEqualTo(1);
        await().atMost(WAIT).until(() -> "OPEN".equals(Replays.statusOf(app, id)));
        String ownIdOfTheReFailure = IncidentId.of(new FailureKey(desk.source(), 1, replay.offset(), desk.group())).value();
        assertThat(Replays.events(app, ownIdOfTheReFailure, "IncidentOpened")).as("the re-failure opened no incident of its own").isZero();
        assertThat(Replays.lastPayload(app, id, "RetryFailureCorrelated")).contains("\"dialect\":\"" + desk.dialect() + "\"");

        Files.writeString(markers, markersLeft); // fixed: the writer reads its markers again within a batch or 200 ms
        Thread.sleep(500);
        HttpResponse<String> second = Replays.requestReplay(app, id);
        assertThat(second.statusCode()).as(second.body()).isEqualTo(202);
        assertThat(second.body()).contains("\"attempt\":2");
        await().atMost(WAIT).untilAsserted(() -> assertThat(writer.processed()).contains(new String(value, StandardCharsets.UTF_8)));
    }

    /** Requested, published byte-identically on the source partition, and the incident resolved: the writer is held meanwhile. */
    private static ConsumerRecord<byte[], byte[]> replayWhileHeld(Desk desk, String id, RecordMetadata source, byte[] key, byte[] value,
                                                                  long timestamp, String eventId) throws Exception {
        ConfigurableApplicationContext app = desk.app();
        HttpResponse<String> accepted = Replays.requestReplay(app, id);
        assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);
        TopicPartition partition = new TopicPartition(desk.source(), 1);
        await().atMost(WAIT).until(() -> !Replays.replaysOn(desk.broker(), partition, source.offset() + 1, id).isEmpty());
        ConsumerRecord<byte[], byte[]> replay = Replays.replaysOn(desk.broker(), partition, source.offset() + 1, id).get(0);
        assertThat(replay.key()).isEqualTo(key);
        assertThat(replay.value()).isEqualTo(value);
        assertThat(replay.timestamp()).isEqualTo(timestamp);
        assertThat(Replays.header(replay, "eventId")).isEqualTo(eventId);
        assertThat(Replays.header(replay, ReplayHeaders.TARGET_GROUP)).isEqualTo(desk.group());
        await().atMost(WAIT).until(() -> Replays.events(app, id, "PublishResultRecorded") == 1);
        assertThat(RunningApp.post(app, "/api/v1/incidents/" + id + "/resolve", "operator", "{\"reason\":\"replayed\"}").statusCode())
                .isEqualTo(204);
        await().atMost(WAIT).until(() -> "RESOLVED".equals(Replays.statusOf(app, id)));
        return replay;
    }

    /**
     * The writer's own DLQ record of a failure (its value holding {@code marker}) is an incident; copies of it with the
     * offset header dropped, or the partition written as 4 binary bytes, still name the group: incidents keyed by their
     * DLQ records, saying which header failed, never replayed. Returns the writer's record, for copies a test adds.
     */
    static ConsumerRecord<byte[], byte[]> brokenCopiesKeepTheirReasons(Desk desk, String eventId, String marker) throws Exception {
        ConfigurableApplicationContext app = desk.app();
        RecordMetadata source = desk.producer().send(Replays.record(desk.source(), 0, Instant.now().minusSeconds(60).toEpochMilli(),
                "k-2".getBytes(StandardCharsets.UTF_8), ("{\"note\":\"" + marker + "\"}").getBytes(StandardCharsets.UTF_8), eventId))
                .get(30, TimeUnit.SECONDS);
        ConsumerRecord<byte[], byte[]> written = DialectRecords.awaitDeadLetterOf(desk.broker(), desk.dlq(), desk.offsetHeader(), source);
        String id = IncidentId.of(new FailureKey(desk.source(), 0, source.offset(), desk.group())).value();
        await().atMost(WAIT).until(() -> Replays.incidentsOf(app, desk.source()).contains(id));

        RecordMetadata noOffset = DialectRecords.sendCopy(desk.producer(), written,
                headers -> DialectRecords.replace(headers, desk.offsetHeader(), null));
        RecordMetadata binaryPartition = DialectRecords.sendCopy(desk.producer(), written,
                headers -> DialectRecords.replace(headers, desk.partitionHeader(), ByteBuffer.allocate(4).putInt(0).array()));
        String withoutOffset = IncidentId.ofDlqRecord(new RecordLocation(desk.dlq(), 0, noOffset.offset())).value();
        String withBinaryPartition = IncidentId.ofDlqRecord(new RecordLocation(desk.dlq(), 0, binaryPartition.offset())).value();
        await().atMost(WAIT).until(() -> Replays.incidentsOf(app, desk.dlq()).containsAll(List.of(withoutOffset, withBinaryPartition)));
        assertThat(RunningApp.get(app, "/api/v1/incidents/" + withoutOffset, "viewer", RunningApp.PASSWORD).body())
                .contains("\"originalLocationKnown\":false", desk.offsetHeader() + ": missing", "\"dlqDialect\":\"" + desk.dialect() + "\"");
        assertThat(RunningApp.get(app, "/api/v1/incidents/" + withBinaryPartition, "viewer", RunningApp.PASSWORD).body())
                .contains("\"originalLocationKnown\":false", desk.partitionHeader() + ": not a decimal number");
        HttpResponse<String> refused = Replays.requestReplay(app, withoutOffset);
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(422);
        assertThat(refused.body()).contains("\"LOCATION_UNKNOWN\"");
        return written;
    }
}

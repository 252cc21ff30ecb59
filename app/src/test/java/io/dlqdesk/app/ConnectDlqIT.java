package io.dlqdesk.app;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.domain.record.RecordLocation;
import io.dlqdesk.domain.replay.ReplayHeaders;
import io.dlqdesk.record.ConnectDlqHeaders;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;

import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A real Kafka Connect sink connector (connect-runtime 4.x, standalone worker in its own JVM, {@code errors.tolerance=all},
 * context headers on) fails on chosen records and writes them to its DLQ; the desk, reading that topic with its default
 * dialect ({@code auto}), opens incidents of the connector's group ({@code connect-<connector>}), replays byte-identically
 * from the source offset, and correlates the connector's next failure of the replay to the same incident. Copies of the
 * connector's own DLQ record with a header dropped or rewritten are kept with the reason, never lost.
 */
@RealInfrastructure
class ConnectDlqIT {

    private static final String NONCE = "cx" + System.nanoTime();
    private static final String ORDERS = Replays.ordersTopic(NONCE);
    private static final String DLQ = ORDERS + ".dlq";
    private static final String CONNECTOR = "orders-sink-" + NONCE;
    private static final String GROUP = "connect-" + CONNECTOR;
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    static Path files;

    private static KafkaBroker broker;
    private static ConfigurableApplicationContext app;
    private static DlqWriters.ConnectWorker connect;
    private static KafkaProducer<byte[], byte[]> producer;
    private static Path markers;
    private static Path output;

    @BeforeAll
    static void start(TestDatabase database, KafkaBroker kafka) throws Exception {
        broker = kafka;
        IngestLedger.createTopic(broker, ORDERS, 2, Map.of());
        IngestLedger.createTopic(broker, DLQ, 1, Map.of());
        markers = Files.writeString(files.resolve("markers.txt"), "fail-replayed\nfail-copied\n");
        output = files.resolve("output.tsv");
        connect = DlqWriters.ConnectWorker.start("connect-dlq-it", broker.bootstrapServers(), CONNECTOR, ORDERS, DLQ, markers, output);
        app = Replays.service(database, broker, NONCE, Map.of("dlqdesk.replay.poll-interval", "200ms"));
        connect.awaitRunning(WAIT);
        producer = IngestLedger.producer(broker, Map.of());
    }

    @AfterAll
    static void stop() throws Exception {
        if (producer != null) {
            producer.close();
        }
        if (connect != null) {
            connect.close();
        }
        if (app != null) {
            app.close();
        }
    }

    @Test
    void aConnectorsFailureIsAnIncidentOfItsGroupReplayedByteIdenticallyAndItsReFailureCorrelated() throws Exception {
        String eventId = "evt-" + NONCE + "-1";
        byte[] key = {(byte) 0xC3, 0x28, 0x00, (byte) 0xFF, 'k'}; // not UTF-8
        byte[] value = "{\"order\":7,\"note\":\"fail-replayed\"}".getBytes(StandardCharsets.UTF_8);
        long timestamp = Instant.now().minusSeconds(120).toEpochMilli();
        RecordMetadata source = producer.send(Replays.record(ORDERS, 1, timestamp, key, value, eventId)).get(30, TimeUnit.SECONDS);
        String id = IncidentId.of(new FailureKey(ORDERS, 1, source.offset(), GROUP)).value();
        await().atMost(WAIT).until(() -> Replays.incidentsOf(app, ORDERS).contains(id));

        String detail = RunningApp.get(app, "/api/v1/incidents/" + id, "viewer", RunningApp.PASSWORD).body();
        assertThat(detail).contains("\"dlqDialect\":\"CONNECT\"", "\"consumerGroup\":\"" + GROUP + "\"", "\"eventId\":\"" + eventId + "\"",
                "\"originalLocationKnown\":true", "\"exceptionClass\":\"java.net.ConnectException\"");

        assertThat(RunningApp.post(app, "/api/v1/incidents/" + id + "/acknowledge", "operator", "{\"reason\":\"mine\"}").statusCode())
                .isEqualTo(204);
        HttpResponse<String> accepted = Replays.requestReplay(app, id);
        assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);
        TopicPartition partition = new TopicPartition(ORDERS, 1);
        await().atMost(WAIT).until(() -> !Replays.replaysOn(broker, partition, source.offset() + 1, id).isEmpty());
        ConsumerRecord<byte[], byte[]> replay = Replays.replaysOn(broker, partition, source.offset() + 1, id).get(0);
        assertThat(replay.key()).isEqualTo(key);
        assertThat(replay.value()).isEqualTo(value);
        assertThat(replay.timestamp()).isEqualTo(timestamp);
        assertThat(Replays.header(replay, "eventId")).isEqualTo(eventId);
        assertThat(Replays.header(replay, ReplayHeaders.TARGET_GROUP)).isEqualTo(GROUP);

        // the connector still fails on it; its DLQ record carries the replay's headers, so the nine checks hold
        await().atMost(WAIT).until(() -> Replays.events(app, id, "RetryFailureCorrelated") >= 1);
        String ownIdOfTheReFailure = IncidentId.of(new FailureKey(ORDERS, 1, replay.offset(), GROUP)).value();
        assertThat(Replays.events(app, ownIdOfTheReFailure, "IncidentOpened")).as("the re-failure opened no incident of its own").isZero();
        assertThat(Replays.lastPayload(app, id, "RetryFailureCorrelated")).contains("\"dialect\":\"CONNECT\"");

        Files.writeString(markers, "fail-copied\n"); // fixed: the connector reads its markers again on its next batch
        HttpResponse<String> second = Replays.requestReplay(app, id);
        assertThat(second.statusCode()).as(second.body()).isEqualTo(202);
        assertThat(second.body()).contains("\"attempt\":2");
        await().atMost(WAIT).until(() -> Files.exists(output) && Files.readString(output).contains("fail-replayed"));
        assertThat(Files.readAllLines(output)).anySatisfy(line -> assertThat(line)
                .startsWith(ORDERS + "\t1\t").endsWith("\t" + new String(value, StandardCharsets.UTF_8)));
    }

    @Test
    void copiesOfTheConnectorsRecordThatNoWriterWouldSendAreKeptWithTheReason() throws Exception {
        String eventId = "evt-" + NONCE + "-2";
        RecordMetadata source = producer.send(Replays.record(ORDERS, 0, Instant.now().minusSeconds(60).toEpochMilli(),
                "k-2".getBytes(StandardCharsets.UTF_8), "{\"note\":\"fail-copied\"}".getBytes(StandardCharsets.UTF_8), eventId))
                .get(30, TimeUnit.SECONDS);
        ConsumerRecord<byte[], byte[]> written = DialectRecords.awaitDeadLetterOf(broker, DLQ, ConnectDlqHeaders.OFFSET, source);
        String id = IncidentId.of(new FailureKey(ORDERS, 0, source.offset(), GROUP)).value();
        await().atMost(WAIT).until(() -> Replays.incidentsOf(app, ORDERS).contains(id)); // the writer's own: an incident

        RecordMetadata noOffset = DialectRecords.sendCopy(producer, written,
                headers -> DialectRecords.replace(headers, ConnectDlqHeaders.OFFSET, null));
        RecordMetadata binaryPartition = DialectRecords.sendCopy(producer, written,
                headers -> DialectRecords.replace(headers, ConnectDlqHeaders.PARTITION, ByteBuffer.allocate(4).putInt(0).array()));
        RecordMetadata forgedConnector = DialectRecords.sendCopy(producer, written,
                headers -> DialectRecords.replace(headers, ConnectDlqHeaders.CONNECTOR_NAME, "sink\nINFO forged".getBytes(StandardCharsets.UTF_8)));
        RecordMetadata noContextHeaders = DialectRecords.sendCopy(producer, written, headers -> { // as with context headers off
            java.util.Arrays.stream(headers.toArray()).map(header -> header.key()).filter(name -> name.startsWith(ConnectDlqHeaders.PREFIX))
                    .distinct().forEach(headers::remove);
            return headers;
        });

        // the group is still known: incidents keyed by their DLQ records, saying which header failed, never replayed
        String withoutOffset = IncidentId.ofDlqRecord(new RecordLocation(DLQ, 0, noOffset.offset())).value();
        String withBinaryPartition = IncidentId.ofDlqRecord(new RecordLocation(DLQ, 0, binaryPartition.offset())).value();
        await().atMost(WAIT).until(() -> Replays.incidentsOf(app, DLQ).containsAll(java.util.List.of(withoutOffset, withBinaryPartition)));
        assertThat(RunningApp.get(app, "/api/v1/incidents/" + withoutOffset, "viewer", RunningApp.PASSWORD).body())
                .contains("\"originalLocationKnown\":false", "__connect.errors.offset: missing", "\"dlqDialect\":\"CONNECT\"");
        assertThat(RunningApp.get(app, "/api/v1/incidents/" + withBinaryPartition, "viewer", RunningApp.PASSWORD).body())
                .contains("\"originalLocationKnown\":false", "__connect.errors.partition: not a decimal number");
        HttpResponse<String> refused = Replays.requestReplay(app, withoutOffset);
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(422);
        assertThat(refused.body()).contains("\"LOCATION_UNKNOWN\"");

        // no group can be named: quarantined with the reason
        await().atMost(WAIT).until(() -> DialectRecords.quarantineReason(app, noContextHeaders) != null);
        assertThat(DialectRecords.quarantineReason(app, noContextHeaders)).contains("no header of a known DLQ writer")
                .contains("errors.deadletterqueue.context.headers.enable=true");
        await().atMost(WAIT).until(() -> DialectRecords.quarantineReason(app, forgedConnector) != null);
        assertThat(DialectRecords.quarantineReason(app, forgedConnector))
                .isEqualTo("__connect.errors.connector.name: control character U+000A at index 4");
    }
}

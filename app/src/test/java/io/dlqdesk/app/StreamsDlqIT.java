package io.dlqdesk.app;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.domain.record.RecordLocation;
import io.dlqdesk.domain.replay.ReplayHeaders;
import io.dlqdesk.record.StreamsDlqHeaders;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
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
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A real Kafka Streams application (kafka-streams 4.x in its own JVM, KIP-1034's {@code errors.dead.letter.queue.topic.name})
 * fails on chosen records; the desk reads its DLQ topic as the {@code streams} dialect with the application id as the
 * failing group (no header carries it), replays byte-identically from the source offset, and correlates the app's next
 * failure of the replay. The same record on a DLQ topic the desk was told nothing about, and copies with a header dropped
 * or rewritten, are kept with the reason.
 */
@RealInfrastructure
class StreamsDlqIT {

    private static final String NONCE = "sx" + System.nanoTime();
    private static final String ORDERS = Replays.ordersTopic(NONCE);
    private static final String DLQ = ORDERS + ".dlq";
    /** A DLQ topic the desk reads with its defaults: nothing names the Streams app's group there. */
    private static final String UNCONFIGURED_DLQ = ORDERS + "-other.dlq";
    private static final String OUT = ORDERS + "-enriched";
    private static final String APPLICATION_ID = "orders-enricher-" + NONCE;
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    static Path files;

    private static KafkaBroker broker;
    private static ConfigurableApplicationContext app;
    private static DlqWriters.StreamsApp streams;
    private static KafkaProducer<byte[], byte[]> producer;
    private static Path markers;

    @BeforeAll
    static void start(TestDatabase database, KafkaBroker kafka) throws Exception {
        broker = kafka;
        IngestLedger.createTopic(broker, ORDERS, 2, Map.of());
        IngestLedger.createTopic(broker, OUT, 1, Map.of());
        IngestLedger.createTopic(broker, DLQ, 1, Map.of());
        IngestLedger.createTopic(broker, UNCONFIGURED_DLQ, 1, Map.of());
        markers = Files.writeString(files.resolve("markers.txt"), "fail-replayed\nfail-copied\n");
        streams = DlqWriters.StreamsApp.start("streams-dlq-it", broker.bootstrapServers(), APPLICATION_ID, ORDERS, OUT, DLQ, markers);
        app = Replays.service(database, broker, NONCE, Map.of(
                "dlqdesk.replay.poll-interval", "200ms",
                "dlqdesk.ingest.topic-pattern", ORDERS.replace("-", "\\-") + "(\\-other)?\\.dlq",
                "dlqdesk.ingest.dlq-topics[" + DLQ + "].dialect", "streams",
                "dlqdesk.ingest.dlq-topics[" + DLQ + "].consumer-group", APPLICATION_ID));
        streams.awaitRunning(WAIT);
        producer = IngestLedger.producer(broker, Map.of());
    }

    @AfterAll
    static void stop() throws Exception {
        if (producer != null) {
            producer.close();
        }
        if (streams != null) {
            streams.close();
        }
        if (app != null) {
            app.close();
        }
    }

    @Test
    void anAppsFailureIsAnIncidentOfItsApplicationIdReplayedByteIdenticallyAndItsReFailureCorrelated() throws Exception {
        String eventId = "evt-" + NONCE + "-1";
        byte[] key = {(byte) 0xC3, 0x28, 0x00, (byte) 0xFF, 'k'}; // not UTF-8
        byte[] value = "{\"order\":7,\"note\":\"fail-replayed\"}".getBytes(StandardCharsets.UTF_8);
        long timestamp = Instant.now().minusSeconds(120).toEpochMilli();
        RecordMetadata source = producer.send(Replays.record(ORDERS, 1, timestamp, key, value, eventId)).get(30, TimeUnit.SECONDS);
        String id = IncidentId.of(new FailureKey(ORDERS, 1, source.offset(), APPLICATION_ID)).value();
        await().atMost(WAIT).until(() -> Replays.incidentsOf(app, ORDERS).contains(id));

        assertThat(RunningApp.get(app, "/api/v1/incidents/" + id, "viewer", RunningApp.PASSWORD).body())
                .contains("\"dlqDialect\":\"STREAMS\"", "\"consumerGroup\":\"" + APPLICATION_ID + "\"", "\"eventId\":\"" + eventId + "\"",
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
        assertThat(Replays.header(replay, ReplayHeaders.TARGET_GROUP)).isEqualTo(APPLICATION_ID);

        // the app still fails on it; Streams copies the replay's headers into its DLQ record, so the nine checks hold
        await().atMost(WAIT).until(() -> Replays.events(app, id, "RetryFailureCorrelated") >= 1);
        String ownIdOfTheReFailure = IncidentId.of(new FailureKey(ORDERS, 1, replay.offset(), APPLICATION_ID)).value();
        assertThat(Replays.events(app, ownIdOfTheReFailure, "IncidentOpened")).as("the re-failure opened no incident of its own").isZero();
        assertThat(Replays.lastPayload(app, id, "RetryFailureCorrelated")).contains("\"dialect\":\"STREAMS\"");

        Files.writeString(markers, "fail-copied\n"); // fixed: the app reads its markers again within 200 ms
        Thread.sleep(500);
        HttpResponse<String> second = Replays.requestReplay(app, id);
        assertThat(second.statusCode()).as(second.body()).isEqualTo(202);
        assertThat(second.body()).contains("\"attempt\":2");
        await().atMost(WAIT).untilAsserted(() -> assertThat(DialectRecords.values(broker, OUT)).contains(new String(value, StandardCharsets.UTF_8)));
    }

    @Test
    void theAppsRecordWhereNoGroupIsSetOrWithABrokenHeaderIsKeptWithTheReason() throws Exception {
        String eventId = "evt-" + NONCE + "-2";
        RecordMetadata source = producer.send(Replays.record(ORDERS, 0, Instant.now().minusSeconds(60).toEpochMilli(),
                "k-2".getBytes(StandardCharsets.UTF_8), "{\"note\":\"fail-copied\"}".getBytes(StandardCharsets.UTF_8), eventId))
                .get(30, TimeUnit.SECONDS);
        ConsumerRecord<byte[], byte[]> written = DialectRecords.awaitDeadLetterOf(broker, DLQ, StreamsDlqHeaders.OFFSET, source);
        String id = IncidentId.of(new FailureKey(ORDERS, 0, source.offset(), APPLICATION_ID)).value();
        await().atMost(WAIT).until(() -> Replays.incidentsOf(app, ORDERS).contains(id)); // the writer's own: an incident

        RecordMetadata noOffset = DialectRecords.sendCopy(producer, written,
                headers -> DialectRecords.replace(headers, StreamsDlqHeaders.OFFSET, null));
        RecordMetadata binaryPartition = DialectRecords.sendCopy(producer, written,
                headers -> DialectRecords.replace(headers, StreamsDlqHeaders.PARTITION, ByteBuffer.allocate(4).putInt(0).array()));
        RecordMetadata elsewhere = producer.send(new ProducerRecord<>(UNCONFIGURED_DLQ, 0, written.timestamp(), written.key(), written.value(),
                written.headers())).get(30, TimeUnit.SECONDS);

        String withoutOffset = IncidentId.ofDlqRecord(new RecordLocation(DLQ, 0, noOffset.offset())).value();
        String withBinaryPartition = IncidentId.ofDlqRecord(new RecordLocation(DLQ, 0, binaryPartition.offset())).value();
        await().atMost(WAIT).until(() -> Replays.incidentsOf(app, DLQ).containsAll(List.of(withoutOffset, withBinaryPartition)));
        assertThat(RunningApp.get(app, "/api/v1/incidents/" + withoutOffset, "viewer", RunningApp.PASSWORD).body())
                .contains("\"originalLocationKnown\":false", "__streams.errors.offset: missing", "\"dlqDialect\":\"STREAMS\"");
        assertThat(RunningApp.get(app, "/api/v1/incidents/" + withBinaryPartition, "viewer", RunningApp.PASSWORD).body())
                .contains("\"originalLocationKnown\":false", "__streams.errors.partition: not a decimal number");
        HttpResponse<String> refused = Replays.requestReplay(app, withoutOffset);
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(422);
        assertThat(refused.body()).contains("\"LOCATION_UNKNOWN\"");

        await().atMost(WAIT).until(() -> DialectRecords.quarantineReason(app, elsewhere) != null);
        assertThat(DialectRecords.quarantineReason(app, elsewhere)).startsWith("__streams.errors.*: ")
                .contains("dlqdesk.ingest.dlq-topics[" + UNCONFIGURED_DLQ + "].consumer-group");
    }
}

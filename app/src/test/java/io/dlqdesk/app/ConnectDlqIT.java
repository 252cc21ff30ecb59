package io.dlqdesk.app;

import io.dlqdesk.record.ConnectDlqHeaders;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A real Kafka Connect sink connector (connect-runtime 4.x, standalone worker in its own JVM, {@code errors.tolerance=all},
 * context headers on) fails on chosen records and writes them to its DLQ; the desk, reading that topic with its default
 * dialect ({@code auto}), opens incidents of the connector's group ({@code connect-<connector>}), replays byte-identically
 * from the source offset, and correlates the connector's next failure of the replay to the same incident, which reopens.
 * Copies of the connector's own DLQ record with a header dropped or rewritten are kept with the reason, never lost.
 */
@RealInfrastructure
class ConnectDlqIT {

    private static final String NONCE = "cx" + System.nanoTime();
    private static final String ORDERS = Replays.ordersTopic(NONCE);
    private static final String DLQ = ORDERS + ".dlq";
    private static final String CONNECTOR = "orders-sink-" + NONCE;
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    static Path files;

    private static ConfigurableApplicationContext app;
    private static DlqWriters.ConnectWorker connect;
    private static KafkaProducer<byte[], byte[]> producer;
    private static DialectStory.Desk desk;
    private static Path markers;
    private static Path output;

    @BeforeAll
    static void start(TestDatabase database, KafkaBroker broker) throws Exception {
        IngestLedger.createTopic(broker, ORDERS, 2, Map.of());
        IngestLedger.createTopic(broker, DLQ, 1, Map.of());
        markers = Files.writeString(files.resolve("markers.txt"), "fail-replayed\nfail-copied\n");
        output = files.resolve("output.tsv");
        connect = DlqWriters.ConnectWorker.start("connect-dlq-it", broker.bootstrapServers(), CONNECTOR, ORDERS, DLQ, markers, output);
        app = Replays.service(database, broker, NONCE, Map.of("dlqdesk.replay.poll-interval", "200ms"));
        connect.awaitRunning(WAIT);
        producer = IngestLedger.producer(broker, Map.of());
        desk = new DialectStory.Desk(app, broker, producer, ORDERS, DLQ, "connect-" + CONNECTOR, "CONNECT", ConnectDlqHeaders.OFFSET,
                ConnectDlqHeaders.PARTITION);
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
    void aConnectorsFailureIsAnIncidentOfItsGroupReplayedByteIdenticallyAndItsReFailureReopensIt() throws Exception {
        DialectStory.failReplayReFailFix(desk, new DialectStory.Writer() {
            @Override
            public void hold() throws Exception {
                connect.pause(WAIT);
            }

            @Override
            public void release() throws Exception {
                connect.resume(WAIT);
            }

            @Override
            public List<String> processed() throws Exception { // <topic> <partition> <offset> <value> a line
                return Files.exists(output) ? Files.readAllLines(output).stream().map(line -> line.split("\t", 4)[3]).toList() : List.of();
            }
        }, "evt-" + NONCE + "-1", "fail-replayed", markers, "fail-copied\n");
    }

    @Test
    void copiesOfTheConnectorsRecordThatNoWriterWouldSendAreKeptWithTheReason() throws Exception {
        ConsumerRecord<byte[], byte[]> written = DialectStory.brokenCopiesKeepTheirReasons(desk, "evt-" + NONCE + "-2", "fail-copied");

        RecordMetadata forgedConnector = DialectRecords.sendCopy(producer, written, headers -> DialectRecords.replace(headers,
                ConnectDlqHeaders.CONNECTOR_NAME, "sink\nINFO forged".getBytes(StandardCharsets.UTF_8)));
        RecordMetadata noContextHeaders = DialectRecords.sendCopy(producer, written, headers -> { // as with context headers off
            Arrays.stream(headers.toArray()).map(header -> header.key()).filter(name -> name.startsWith(ConnectDlqHeaders.PREFIX))
                    .distinct().forEach(headers::remove);
            return headers;
        });

        // no group can be named: quarantined with the reason
        await().atMost(WAIT).until(() -> DialectRecords.quarantineReason(app, noContextHeaders) != null);
        assertThat(DialectRecords.quarantineReason(app, noContextHeaders)).contains("no header of a known DLQ writer")
                .contains("errors.deadletterqueue.context.headers.enable=true");
        await().atMost(WAIT).until(() -> DialectRecords.quarantineReason(app, forgedConnector) != null);
        assertThat(DialectRecords.quarantineReason(app, forgedConnector))
                .isEqualTo("__connect.errors.connector.name: control character U+000A at index 4");
    }
}

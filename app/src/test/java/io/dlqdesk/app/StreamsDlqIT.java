package io.dlqdesk.app;

import io.dlqdesk.record.StreamsDlqHeaders;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A real Kafka Streams application (kafka-streams 4.x in its own JVM, KIP-1034's {@code errors.dead.letter.queue.topic.name})
 * fails on chosen records; the desk reads its DLQ topic as the {@code streams} dialect with the application id as the
 * failing group (no header carries it), replays byte-identically from the source offset, and correlates the app's next
 * failure of the replay, which reopens the incident. The same record on a DLQ topic the desk was told nothing about, and
 * copies with a header dropped or rewritten, are kept with the reason.
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
    private static DialectStory.Desk desk;
    private static Path markers;

    @BeforeAll
    static void start(TestDatabase database, KafkaBroker kafka) throws Exception {
        broker = kafka;
        IngestLedger.createTopic(broker, ORDERS, 2, Map.of());
        IngestLedger.createTopic(broker, OUT, 1, Map.of());
        IngestLedger.createTopic(broker, DLQ, 1, Map.of());
        IngestLedger.createTopic(broker, UNCONFIGURED_DLQ, 1, Map.of());
        markers = Files.writeString(files.resolve("markers.txt"), "fail-replayed\nfail-copied\n");
        streams = startStreams("streams-dlq-it");
        app = Replays.service(database, broker, NONCE, Map.of(
                "dlqdesk.replay.poll-interval", "200ms",
                "dlqdesk.ingest.topic-pattern", ORDERS.replace("-", "\\-") + "(\\-other)?\\.dlq",
                "dlqdesk.ingest.dlq-topics[" + DLQ + "].dialect", "streams",
                "dlqdesk.ingest.dlq-topics[" + DLQ + "].consumer-group", APPLICATION_ID));
        streams.awaitRunning(WAIT);
        producer = IngestLedger.producer(broker, Map.of());
        desk = new DialectStory.Desk(app, broker, producer, ORDERS, DLQ, APPLICATION_ID, "STREAMS", StreamsDlqHeaders.OFFSET,
                StreamsDlqHeaders.PARTITION);
    }

    private static DlqWriters.StreamsApp startStreams(String name) throws Exception {
        return DlqWriters.StreamsApp.start(name, broker.bootstrapServers(), APPLICATION_ID, ORDERS, OUT, DLQ, markers);
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
    void anAppsFailureIsAnIncidentOfItsApplicationIdReplayedByteIdenticallyAndItsReFailureReopensIt() throws Exception {
        DialectStory.failReplayReFailFix(desk, new DialectStory.Writer() {
            @Override
            public void hold() throws Exception {
                streams.close(); // the next one starts from the group's committed offsets, once this member's session ends
            }

            @Override
            public void release() throws Exception {
                streams = startStreams("streams-dlq-it-again").awaitRunning(WAIT);
            }

            @Override
            public List<String> processed() {
                return DialectRecords.values(broker, OUT);
            }
        }, "evt-" + NONCE + "-1", "fail-replayed", markers, "fail-copied\n");
    }

    @Test
    void theAppsRecordWhereNoGroupIsSetOrWithABrokenHeaderIsKeptWithTheReason() throws Exception {
        ConsumerRecord<byte[], byte[]> written = DialectStory.brokenCopiesKeepTheirReasons(desk, "evt-" + NONCE + "-2", "fail-copied");

        RecordMetadata elsewhere = producer.send(new ProducerRecord<>(UNCONFIGURED_DLQ, 0, written.timestamp(), written.key(), written.value(),
                written.headers())).get(30, TimeUnit.SECONDS);
        await().atMost(WAIT).until(() -> DialectRecords.quarantineReason(app, elsewhere) != null);
        assertThat(DialectRecords.quarantineReason(app, elsewhere)).startsWith("__streams.errors.*: ")
                .contains("dlqdesk.ingest.dlq-topics[" + UNCONFIGURED_DLQ + "].consumer-group");
    }
}

package io.dlqdesk.app;

import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
 * The harness of {@link DlqWriters} works: Apache Kafka's real dead-letter writers, a Connect sink connector's DLQ
 * and a Kafka Streams (KIP-1034) DLQ, each in a JVM of its own on kafka 4.x, write the record they fail on to their
 * DLQ topic byte for byte, with their dialect's headers, and process the other. Needs {@code dlq-writers} built.
 */
@RealInfrastructure
class DlqWritersSmokeIT {

    private static final String NONCE = "w" + System.nanoTime();
    private static final String CONNECT_SRC = "it-" + NONCE + "-connect-src";
    private static final String CONNECT_DLQ = CONNECT_SRC + ".dlq";
    private static final String STREAMS_SRC = "it-" + NONCE + "-streams-src";
    private static final String STREAMS_OUT = "it-" + NONCE + "-streams-out";
    private static final String STREAMS_DLQ = STREAMS_SRC + ".dlq";
    private static final String CONNECTOR = "smoke-sink-" + NONCE;
    private static final String APPLICATION_ID = "smoke-streams-" + NONCE;
    private static final Duration WAIT = Duration.ofSeconds(60);
    // not UTF-8, so "byte-identical" means more than equal text
    private static final byte[] FAILING_KEY = {(byte) 0xC3, 0x28, 0x00, (byte) 0xFF, 'k'};
    private static final byte[] FAILING_VALUE = "please fail".getBytes(StandardCharsets.UTF_8);
    private static final byte[] OK_VALUE = "ok-1".getBytes(StandardCharsets.UTF_8);

    @TempDir
    static Path files;

    private static KafkaBroker broker;
    private static DlqWriters.ConnectWorker connect;
    private static DlqWriters.StreamsApp streams;
    private static KafkaProducer<byte[], byte[]> producer;
    private static Path connectOutput;
    private static Path connectMarkers;
    private static Path streamsMarkers;

    @BeforeAll
    static void start(KafkaBroker kafka) throws Exception {
        broker = kafka;
        // two source partitions, the failing record on partition 1: the DLQ (one partition) must still name partition 1
        IngestLedger.createTopic(broker, CONNECT_SRC, 2, Map.of());
        IngestLedger.createTopic(broker, CONNECT_DLQ, 1, Map.of());
        IngestLedger.createTopic(broker, STREAMS_SRC, 2, Map.of());
        IngestLedger.createTopic(broker, STREAMS_OUT, 1, Map.of());
        IngestLedger.createTopic(broker, STREAMS_DLQ, 1, Map.of());
        // one file per writer: each test "fixes" its writer by emptying its file
        connectMarkers = Files.writeString(files.resolve("connect-markers.txt"), "fail\n");
        streamsMarkers = Files.writeString(files.resolve("streams-markers.txt"), "fail\n");
        connectOutput = files.resolve("connect-output.tsv");
        long started = System.nanoTime();
        connect = DlqWriters.ConnectWorker.start("smoke-connect", broker.bootstrapServers(), CONNECTOR, CONNECT_SRC, CONNECT_DLQ,
                connectMarkers, connectOutput);
        streams = DlqWriters.StreamsApp.start("smoke-streams", broker.bootstrapServers(), APPLICATION_ID, STREAMS_SRC, STREAMS_OUT,
                STREAMS_DLQ, streamsMarkers);
        connect.awaitRunning(WAIT);
        streams.awaitRunning(WAIT);
        System.out.printf("DlqWritersSmokeIT: both writers running after %d ms%n", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
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
        if (streams != null) {
            streams.close();
        }
    }

    @Test
    void connectWritesTheFailedRecordToItsDlqWithContextHeaders() throws Exception {
        long timestamp = Instant.now().minusSeconds(90).toEpochMilli();
        RecordMetadata ok = send(CONNECT_SRC, 0, timestamp - 1, "key-ok".getBytes(StandardCharsets.UTF_8), OK_VALUE, "evt-" + NONCE + "-c-ok");
        RecordMetadata failed = send(CONNECT_SRC, 1, timestamp, FAILING_KEY, FAILING_VALUE, "evt-" + NONCE + "-c-fail");

        await().atMost(WAIT).until(() -> Files.exists(connectOutput) && Files.readString(connectOutput).contains("ok-1"));
        assertThat(Files.readAllLines(connectOutput)).containsExactly(CONNECT_SRC + "\t0\t" + ok.offset() + "\tok-1");
        await().atMost(WAIT).until(() -> !all(CONNECT_DLQ).isEmpty());
        List<ConsumerRecord<byte[], byte[]>> dlq = all(CONNECT_DLQ);
        print("Connect", dlq);
        assertThat(dlq).hasSize(1);
        ConsumerRecord<byte[], byte[]> record = dlq.get(0);
        assertThat(record.key()).isEqualTo(FAILING_KEY);
        assertThat(record.value()).isEqualTo(FAILING_VALUE);
        assertThat(record.timestamp()).isEqualTo(timestamp);
        assertThat(Replays.header(record, "eventId")).isEqualTo("evt-" + NONCE + "-c-fail");
        assertThat(Replays.header(record, "__connect.errors.topic")).isEqualTo(CONNECT_SRC);
        assertThat(Replays.header(record, "__connect.errors.partition")).isEqualTo("1");
        assertThat(Replays.header(record, "__connect.errors.offset")).isEqualTo(Long.toString(failed.offset()));
        assertThat(Replays.header(record, "__connect.errors.connector.name")).isEqualTo(CONNECTOR);
        assertThat(Replays.header(record, "__connect.errors.task.id")).isEqualTo("0");
        assertThat(Replays.header(record, "__connect.errors.stage")).isEqualTo("TASK_PUT");
        assertThat(Replays.header(record, "__connect.errors.class.name")).isEqualTo("org.apache.kafka.connect.sink.SinkTask");
        assertThat(Replays.header(record, "__connect.errors.exception.class.name")).isEqualTo("java.lang.IllegalStateException");
        assertThat(Replays.header(record, "__connect.errors.exception.message")).startsWith("payment service rejected");
        assertThat(Replays.header(record, "__connect.errors.exception.stacktrace"))
                .startsWith("java.lang.IllegalStateException: payment service rejected")
                .contains("Caused by: java.net.ConnectException: downstream refused");
        // the group is connect-<connector name>, and it commits past the dead-lettered record
        await().atMost(WAIT).until(() -> Long.valueOf(failed.offset() + 1)
                .equals(broker.committedOffset(connect.consumerGroup(), new TopicPartition(CONNECT_SRC, 1))));

        Files.writeString(connectMarkers, ""); // fixed: the markers file is read again on the next batch
        RecordMetadata after = send(CONNECT_SRC, 1, timestamp + 1, FAILING_KEY, "please fail again".getBytes(StandardCharsets.UTF_8), "evt-" + NONCE + "-c-fixed");
        await().atMost(WAIT).until(() -> Files.readString(connectOutput).contains("please fail again"));
        assertThat(Files.readAllLines(connectOutput)).endsWith(CONNECT_SRC + "\t1\t" + after.offset() + "\tplease fail again");
        assertThat(all(CONNECT_DLQ)).hasSize(1);
    }

    @Test
    void streamsWritesTheFailedRecordToItsDlqWithItsHeaders() throws Exception {
        long timestamp = Instant.now().minusSeconds(60).toEpochMilli();
        send(STREAMS_SRC, 0, timestamp - 1, "key-ok".getBytes(StandardCharsets.UTF_8), OK_VALUE, "evt-" + NONCE + "-s-ok");
        RecordMetadata failed = send(STREAMS_SRC, 1, timestamp, FAILING_KEY, FAILING_VALUE, "evt-" + NONCE + "-s-fail");

        await().atMost(WAIT).until(() -> all(STREAMS_OUT).size() == 1);
        assertThat(all(STREAMS_OUT).get(0).value()).isEqualTo(OK_VALUE);
        await().atMost(WAIT).until(() -> !all(STREAMS_DLQ).isEmpty());
        List<ConsumerRecord<byte[], byte[]>> dlq = all(STREAMS_DLQ);
        print("Streams", dlq);
        assertThat(dlq).hasSize(1);
        ConsumerRecord<byte[], byte[]> record = dlq.get(0);
        assertThat(record.key()).isEqualTo(FAILING_KEY);
        assertThat(record.value()).isEqualTo(FAILING_VALUE);
        assertThat(record.timestamp()).isEqualTo(timestamp);
        assertThat(Replays.header(record, "eventId")).isEqualTo("evt-" + NONCE + "-s-fail");
        assertThat(Replays.header(record, "__streams.errors.topic")).isEqualTo(STREAMS_SRC);
        assertThat(Replays.header(record, "__streams.errors.partition")).isEqualTo("1");
        assertThat(Replays.header(record, "__streams.errors.offset")).isEqualTo(Long.toString(failed.offset()));
        assertThat(Replays.header(record, "__streams.errors.exception")).isEqualTo("java.lang.IllegalStateException");
        assertThat(Replays.header(record, "__streams.errors.message")).startsWith("payment service rejected");
        assertThat(Replays.header(record, "__streams.errors.stacktrace"))
                .startsWith("java.lang.IllegalStateException: payment service rejected")
                .contains("Caused by: java.net.ConnectException: downstream refused");

        Files.writeString(streamsMarkers, ""); // fixed: the app reads the file again within 200 ms
        Thread.sleep(400);
        send(STREAMS_SRC, 1, timestamp + 1, FAILING_KEY, "please fail again".getBytes(StandardCharsets.UTF_8), "evt-" + NONCE + "-s-fixed");
        await().atMost(WAIT).until(() -> all(STREAMS_OUT).size() == 2);
        assertThat(all(STREAMS_OUT).get(1).value()).isEqualTo("please fail again".getBytes(StandardCharsets.UTF_8));
        assertThat(all(STREAMS_DLQ)).hasSize(1);
    }

    private static RecordMetadata send(String topic, int partition, long timestamp, byte[] key, byte[] value, String eventId) throws Exception {
        ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, partition, timestamp, key, value);
        record.headers().add("eventId", eventId.getBytes(StandardCharsets.UTF_8));
        return producer.send(record).get(30, TimeUnit.SECONDS);
    }

    private static List<ConsumerRecord<byte[], byte[]>> all(String topic) {
        return DialectRecords.all(broker, topic);
    }

    /** What the other ITs build on: each DLQ record's headers as the writer wrote them, in order. */
    private static void print(String writer, List<ConsumerRecord<byte[], byte[]>> records) {
        for (ConsumerRecord<byte[], byte[]> record : records) {
            StringBuilder text = new StringBuilder(writer + " DLQ record " + record.topic() + "-" + record.partition() + "@" + record.offset()
                    + " timestamp " + record.timestamp() + " (" + record.timestampType() + ")\n");
            for (Header header : record.headers()) {
                String value = header.value() == null ? "<null>" : new String(header.value(), StandardCharsets.UTF_8);
                text.append("  ").append(header.key()).append(" = ")
                        .append(value.length() > 400 ? value.substring(0, 400) + "... (" + value.length() + " chars)" : value).append('\n');
            }
            System.out.print(text);
        }
    }
}

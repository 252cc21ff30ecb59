package io.dlqdesk.app;

import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Each replay condition that can fail on a real log refuses with its own reason, as a 422 that lists it. */
@RealInfrastructure
class ReplayRefusalIT {

    private static final String NONCE = "r" + System.nanoTime();
    private static final String ORDERS = Replays.ordersTopic(NONCE);
    private static final String GROUP = "billing";
    private static final Duration WAIT = Duration.ofSeconds(60);

    private static KafkaBroker broker;
    private static ConfigurableApplicationContext app;
    private static KafkaProducer<byte[], byte[]> producer;

    @BeforeAll
    static void start(TestDatabase database, KafkaBroker kafka) throws Exception {
        broker = kafka;
        IngestLedger.createTopic(broker, ORDERS, 1, Map.of());
        IngestLedger.createTopic(broker, ORDERS + "-short", 1, Map.of());
        IngestLedger.createTopic(broker, ORDERS + "-compacted", 1, Map.of("cleanup.policy", "compact", "segment.ms", "100",
                "min.cleanable.dirty.ratio", "0.001", "min.compaction.lag.ms", "0"));
        IngestLedger.createTopic(broker, "other-" + NONCE, 1, Map.of());
        IngestLedger.createTopic(broker, ORDERS + ".dlq", 1, Map.of());
        app = Replays.service(database, broker, NONCE, Map.of(
                "dlqdesk.replay.allowed-topics", "it-.*",
                "dlqdesk.replay.max-attempts", "1",
                "dlqdesk.replay.poll-interval", "200ms"));
        producer = IngestLedger.producer(broker, Map.of());
    }

    @AfterAll
    static void stop() {
        producer.close();
        app.close();
    }

    @Test
    void aRecordBelowTheLogStartIsRefusedAsAnInvalidLocation() throws Exception {
        String topic = ORDERS + "-short"; // its own topic: deleting records must not touch other tests' sources
        RecordMetadata source = send(topic, "k-deleted", "{\"v\":1}", "evt-deleted");
        send(topic, "k-after", "{\"v\":2}", "evt-after");
        String id = incident(source, "k-deleted", "{\"v\":1}", "evt-deleted", Instant.ofEpochMilli(source.timestamp()));
        TopicPartition partition = new TopicPartition(topic, 0);
        try (Admin admin = broker.admin()) {
            admin.deleteRecords(Map.of(partition, RecordsToDelete.beforeOffset(source.offset() + 1))).all().get(30, TimeUnit.SECONDS);
        }
        assertRefused(id, "LOCATION_INVALID");
    }

    @Test
    void aCompactedAwayRecordIsRefusedBecauseTheNextOneComesBack() throws Exception {
        String topic = ORDERS + "-compacted";
        RecordMetadata first = send(topic, "k-same", "{\"v\":\"old\"}", "evt-old");
        send(topic, "k-same", "{\"v\":\"new\"}", "evt-new");
        TopicPartition partition = new TopicPartition(topic, 0);
        await().atMost(WAIT).pollInterval(Duration.ofMillis(300)).until(() -> {
            send(topic, "k-roll-" + System.nanoTime(), "{}", "evt-roll"); // rolls the segment so the cleaner may compact it
            return firstOffsetFrom(partition, first.offset()) > first.offset();
        });
        String id = incident(first, "k-same", "{\"v\":\"old\"}", "evt-old", Instant.ofEpochMilli(first.timestamp()));
        assertRefused(id, "SOURCE_OFFSET_MISMATCH");
    }

    @Test
    void aRecordWhoseBytesDifferFromTheFailedOnesIsRefused() throws Exception {
        RecordMetadata source = send(ORDERS, "k-bytes", "{\"v\":\"in the topic\"}", "evt-bytes");
        String id = incident(source, "k-bytes", "{\"v\":\"what failed\"}", "evt-bytes", Instant.ofEpochMilli(source.timestamp()));
        assertRefused(id, "SOURCE_VALUE_HASH_MISMATCH");
    }

    @Test
    void aRecordPastItsReplayDeadlineIsRefused() throws Exception {
        Instant eightDaysAgo = Instant.now().minus(Duration.ofDays(8)).truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
        RecordMetadata source = send(ORDERS, "k-old", "{\"v\":\"old\"}", "evt-old-deadline", eightDaysAgo);
        String id = incident(source, "k-old", "{\"v\":\"old\"}", "evt-old-deadline", eightDaysAgo);
        assertRefused(id, "AFTER_DEADLINE");
    }

    /** The DLQ header says "now", the record itself is eight days old: the record's own time decides, and the two disagree. */
    @Test
    void aDlqHeaderThatMakesAnOldRecordLookFreshIsRefused() throws Exception {
        Instant eightDaysAgo = Instant.now().minus(Duration.ofDays(8)).truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
        RecordMetadata source = send(ORDERS, "k-forged", "{\"v\":\"forged\"}", "evt-forged-time", eightDaysAgo);
        String id = incident(source, "k-forged", "{\"v\":\"forged\"}", "evt-forged-time", Instant.now());
        assertRefused(id, "SOURCE_TIMESTAMP_MISMATCH");
        assertThat(Replays.lastPayload(app, id, "ReplayRejected")).doesNotContain("AFTER_DEADLINE");
    }

    @Test
    void aTopicThePolicyDoesNotAllowIsRefused() throws Exception {
        RecordMetadata source = send("other-" + NONCE, "k-other", "{}", "evt-other");
        String id = incident(source, "k-other", "{}", "evt-other", Instant.ofEpochMilli(source.timestamp()));
        assertRefused(id, "TOPIC_NOT_ALLOWED");
    }

    @Test
    void withTheSwitchOffNothingIsReplayedAndWithItOnTheSameRequestIsAccepted() throws Exception {
        RecordMetadata source = send(ORDERS, "k-switch", "{\"v\":\"s\"}", "evt-switch");
        String id = incident(source, "k-switch", "{\"v\":\"s\"}", "evt-switch", Instant.ofEpochMilli(source.timestamp()));
        Replays.setSwitch(app, false);
        try {
            assertRefused(id, "REPLAY_SWITCH_OFF");
        } finally {
            Replays.setSwitch(app, true);
        }
        assertThat(Replays.requestReplay(app, id).statusCode()).isEqualTo(202);
    }

    /** The switch is in the database: another instance sees it turned off on its very next request. */
    @Test
    void turningTheSwitchOffOnOneInstanceStopsReplaysOnAnother(TestDatabase database) throws Exception {
        RecordMetadata source = send(ORDERS, "k-other-instance", "{\"v\":\"o\"}", "evt-other-instance");
        String id = incident(source, "k-other-instance", "{\"v\":\"o\"}", "evt-other-instance", Instant.ofEpochMilli(source.timestamp()));
        try (ConfigurableApplicationContext other = RunningApp.start(database, broker, Map.of(
                "dlqdesk.ingest.enabled", "false",
                "dlqdesk.events-topic", "it-" + NONCE + "-incident-events",
                "dlqdesk.replay.allowed-topics", "it-.*"))) {
            Replays.setSwitch(app, false);
            try {
                HttpResponse<String> refused = Replays.requestReplay(other, id);
                assertThat(refused.statusCode()).as(refused.body()).isEqualTo(422);
                assertThat(refused.body()).contains("\"REPLAY_SWITCH_OFF\"");
                assertThat(RunningApp.get(other, "/api/v1/replay-switch", "viewer", RunningApp.PASSWORD).body())
                        .contains("\"on\":false", "\"changedBy\":\"admin\"");
            } finally {
                Replays.setSwitch(app, true);
            }
            assertThat(Replays.requestReplay(other, id).statusCode()).isEqualTo(202);
        }
    }

    @Test
    void afterTheMaximumNumberOfAttemptsNoFurtherReplayIsAccepted() throws Exception {
        RecordMetadata source = send(ORDERS, "k-cap", "{\"v\":\"c\"}", "evt-cap");
        String id = incident(source, "k-cap", "{\"v\":\"c\"}", "evt-cap", Instant.ofEpochMilli(source.timestamp()));
        HttpResponse<String> first = Replays.requestReplay(app, id);
        assertThat(first.statusCode()).as(first.body()).isEqualTo(202);
        await().atMost(WAIT).until(() -> Replays.events(app, id, "PublishResultRecorded") == 1);
        HttpResponse<String> second = Replays.requestReplay(app, id);
        assertThat(second.statusCode()).isEqualTo(422);
        assertThat(second.body()).contains("MAX_ATTEMPTS_REACHED");
    }

    private static void assertRefused(String id, String reason) throws Exception {
        HttpResponse<String> response = Replays.requestReplay(app, id);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(422);
        assertThat(response.body()).contains("urn:dlqdesk:problem:replay-refused", "\"" + reason + "\"");
        assertThat(Replays.lastPayload(app, id, "ReplayRejected")).as("the refusal is recorded").contains(reason);
        assertThat(Replays.events(app, id, "ReplayRequested")).isZero();
    }

    private static RecordMetadata send(String topic, String key, String value, String eventId) throws Exception {
        return send(topic, key, value, eventId, Instant.now());
    }

    private static RecordMetadata send(String topic, String key, String value, String eventId, Instant timestamp) throws Exception {
        return producer.send(Replays.record(topic, 0, timestamp.toEpochMilli(), utf8(key), utf8(value), eventId)).get(30, TimeUnit.SECONDS);
    }

    private static String incident(RecordMetadata source, String key, String failedValue, String eventId, Instant originalTime)
            throws Exception {
        String id = Replays.sendFailure(producer, source, GROUP, utf8(key), utf8(failedValue), eventId, originalTime, ORDERS + ".dlq");
        await().atMost(WAIT).until(() -> Replays.statusOf(app, id) != null);
        return id;
    }

    private static long firstOffsetFrom(TopicPartition partition, long offset) {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false), new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.assign(List.of(partition));
            consumer.seek(partition, offset);
            var records = consumer.poll(Duration.ofSeconds(2)).records(partition);
            return records.isEmpty() ? -1 : records.get(0).offset();
        }
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}

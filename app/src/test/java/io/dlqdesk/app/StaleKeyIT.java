package io.dlqdesk.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.context.ConfigurableApplicationContext;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The stale-key check on the real stack. On the checked topic the consumer group failed on order-7's first value (offset 0)
 * and has since processed order-7's newer value (offset 1), so replaying the first is refused STALE_KEY naming offset 1,
 * until an operator overrides it with a reason; order-9 (offset 2) has no newer record and replays. On a topic the check
 * does not cover, the same story replays.
 */
@RealInfrastructure
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class StaleKeyIT {

    private static final String NONCE = "stale" + System.nanoTime();
    private static final String GROUP = "orders-service";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final byte[] ORDER_7 = "order-7".getBytes(StandardCharsets.UTF_8);

    private static ConfigurableApplicationContext app;
    private static String checked;
    private static String unchecked;
    private static String staleIncident;
    private static String freshIncident;
    private static String uncheckedIncident;
    private static String jobIncident;

    @BeforeAll
    static void start(TestDatabase database, KafkaBroker broker) throws Exception {
        checked = Replays.ordersTopic(NONCE);
        unchecked = "it-" + NONCE + "-payments";
        for (String topic : new String[] {checked, checked + ".dlq", unchecked, unchecked + ".dlq"}) {
            IngestLedger.createTopic(broker, topic, 1, Map.of());
        }
        try (KafkaProducer<byte[], byte[]> producer = IngestLedger.producer(broker, Map.of())) {
            staleIncident = failedAndOvertaken(producer, checked, ORDER_7);                                           // offsets 0, 1
            freshIncident = failed(producer, checked, "order-9".getBytes(StandardCharsets.UTF_8), "{\"total\":3}", "evt-9"); // 2
            jobIncident = failedAndOvertaken(producer, checked, "order-11".getBytes(StandardCharsets.UTF_8));       // 3, 4
            uncheckedIncident = failedAndOvertaken(producer, unchecked, ORDER_7);
        }
        // the group went on: it processed everything, the newer values of order-7 and order-11 included
        committed(broker, new TopicPartition(checked, 0), 5);
        committed(broker, new TopicPartition(unchecked, 0), 2);
        app = Replays.service(database, broker, NONCE, Map.of(
                "dlqdesk.ingest.topic-pattern", "it-" + NONCE + "-.*\\.dlq",
                "dlqdesk.replay.stale-key-check.topics", checked.replace("-", "\\-")));
        await().atMost(Duration.ofMinutes(1)).until(() -> Replays.incidentsOf(app, checked).size() == 3
                && Replays.incidentsOf(app, unchecked).size() == 1);
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
    }

    @Test
    @Order(1) // before the override replays it
    void aRecordWhoseKeyTheGroupHasSinceProcessedAgainIsRefusedStaleKeyNamingTheNewerOffset() throws Exception {
        HttpResponse<String> refused = Replays.requestReplay(app, staleIncident);
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(422);
        JsonNode problem = JSON.readTree(refused.body());
        assertThat(problem.path("refusals")).extracting(JsonNode::asText).containsExactly("STALE_KEY");
        assertThat(problem.path("keyFreshness").path("state").asText()).isEqualTo("STALE");
        assertThat(problem.path("keyFreshness").path("newerOffset").asLong()).isEqualTo(1);
        assertThat(problem.path("detail").asText()).contains("offset 1");
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(history(staleIncident))
                .contains("STALE_KEY").contains("a newer record with the same key at offset 1"));
        assertThat(Replays.events(app, staleIncident, "ReplayRequested")).isZero();
    }

    @Test
    @Order(2)
    void anOperatorMayReplayOverAStaleKeyWithAReasonAndTheOverrideIsRecorded() throws Exception {
        HttpResponse<String> accepted = RunningApp.post(app, "/api/v1/incidents/" + staleIncident + "/replay", "operator",
                "{\"reason\":\"order-7's newer value was wrong; restoring the first\",\"overrideStaleKey\":true}");
        assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);
        assertThat(Replays.lastPayload(app, staleIncident, "ReplayRequested")).contains("\"staleKeyOverridden\":true").contains("\"newerOffset\":1");
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(history(staleIncident))
                .contains("the stale-key check overridden").contains("restoring the first"));
    }

    @Test
    void aRecordWhoseKeyHasNoNewerProcessedRecordReplays() throws Exception {
        HttpResponse<String> accepted = Replays.requestReplay(app, freshIncident);
        assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);
        assertThat(Replays.lastPayload(app, freshIncident, "ReplayRequested")).contains("\"state\":\"FRESH\"").contains("\"staleKeyOverridden\":false");
    }

    @Test
    void aTopicTheCheckDoesNotCoverReplaysWhateverTheGroupProcessedSince() throws Exception {
        HttpResponse<String> accepted = Replays.requestReplay(app, uncheckedIncident);
        assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);
        assertThat(Replays.lastPayload(app, uncheckedIncident, "ReplayRequested")).contains("\"keyFreshness\":null");
    }

    @Test
    void aBulkJobNeverOverridesItRefusesTheStaleKeyAndCountsIt() throws Exception {
        HttpResponse<String> created = RunningApp.post(app, "/api/v1/replay-jobs", "operator",
                "{\"reason\":\"fix deployed\",\"incidentIds\":[\"" + jobIncident + "\"],\"rate\":10,\"maxInFlight\":5}");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        String job = JSON.readTree(created.body()).path("jobId").asText();
        JsonNode done = await().atMost(Duration.ofMinutes(1)).until(
                () -> JSON.readTree(RunningApp.get(app, "/api/v1/replay-jobs/" + job, "viewer", RunningApp.PASSWORD).body()),
                view -> "COMPLETED".equals(view.path("status").asText()));
        assertThat(done.path("progress").path("refusedBy").path("STALE_KEY").asInt()).as(done.toString()).isEqualTo(1);
        assertThat(done.path("progress").path("requested").asInt()).isZero();
    }

    /** A key's first value, failed by the group and dead-lettered, then its newer value: the incident of the first. */
    private static String failedAndOvertaken(KafkaProducer<byte[], byte[]> producer, String topic, byte[] key) throws Exception {
        String name = new String(key, StandardCharsets.UTF_8);
        String incident = failed(producer, topic, key, "{\"total\":10}", "evt-" + name + "-a");
        producer.send(Replays.record(topic, 0, Instant.now().toEpochMilli(), key, "{\"total\":12}".getBytes(StandardCharsets.UTF_8),
                "evt-" + name + "-b")).get(30, TimeUnit.SECONDS);
        return incident;
    }

    private static String failed(KafkaProducer<byte[], byte[]> producer, String topic, byte[] key, String value, String eventId) throws Exception {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        RecordMetadata sent = producer.send(Replays.record(topic, 0, Instant.now().toEpochMilli(), key, bytes, eventId)).get(30, TimeUnit.SECONDS);
        return Replays.sendFailure(producer, sent, GROUP, key, bytes, eventId, Instant.ofEpochMilli(sent.timestamp()), topic + ".dlq");
    }

    private static void committed(KafkaBroker broker, TopicPartition partition, long offset) throws Exception {
        try (Admin admin = broker.admin()) {
            admin.alterConsumerGroupOffsets(GROUP, Map.of(partition, new OffsetAndMetadata(offset))).all().get(30, TimeUnit.SECONDS);
        }
    }

    private static String history(String incident) throws Exception {
        return RunningApp.get(app, "/api/v1/incidents/" + incident + "/history", "viewer", RunningApp.PASSWORD).body();
    }
}

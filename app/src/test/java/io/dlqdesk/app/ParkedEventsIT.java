package io.dlqdesk.app;

import io.dlqdesk.domain.api.FailureKey;
import io.dlqdesk.domain.api.IncidentId;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A read model that cannot store one aggregate's event must not stall: a trigger in the real database refuses one
 * incident's row, the event is parked (its processing group only), every other incident flows, readiness stays honest,
 * and a retry after the trigger is gone applies it. The same for the rollback facts, where the check answers UNKNOWN
 * while anything is parked, and an eviction, audited with its reason.
 */
@RealInfrastructure
class ParkedEventsIT {

    private static final String NONCE = "pk" + System.nanoTime();
    private static final String ORDERS = Replays.ordersTopic(NONCE);
    private static final String GROUP = "billing";
    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final String VALUE = "{\"v\":1}";
    private static final Pattern PARKED_ID = Pattern.compile("\"id\":\"([0-9a-f-]{36})\"");

    private static ConfigurableApplicationContext app;
    private static KafkaProducer<byte[], byte[]> producer;
    private static JdbcTemplate jdbc;

    @BeforeAll
    static void start(TestDatabase database, KafkaBroker broker) throws Exception {
        IngestLedger.createTopic(broker, ORDERS, 1, Map.of());
        IngestLedger.createTopic(broker, ORDERS + ".dlq", 1, Map.of());
        app = Replays.service(database, broker, NONCE, Map.of(
                "dlqdesk.replay.allowed-topics", "it-.*",
                "dlqdesk.replay.poll-interval", "200ms",
                "dlqdesk.rollback.observation-interval", "200ms",
                "dlqdesk.rollback.read-model-wait", "3s"));
        producer = IngestLedger.producer(broker, Map.of());
        jdbc = app.getBean(JdbcTemplate.class);
    }

    @AfterAll
    static void stop() {
        producer.close();
        app.close();
    }

    @AfterEach
    void dropTriggers() {
        jdbc.execute("DROP TRIGGER IF EXISTS it_refuse_summary");
        jdbc.execute("DROP TRIGGER IF EXISTS it_refuse_attempt");
    }

    @Test
    void aReadModelThatCannotStoreOneIncidentParksItsEventAndTheRestFlowsUntilARetryAppliesIt() throws Exception {
        RecordMetadata refusedSource = send("k-refused", "evt-refused");
        String refused = IncidentId.of(new FailureKey(ORDERS, 0, refusedSource.offset(), GROUP)).value();
        refuseSummaryRowOf(refused);
        Instant failedAt = Instant.now();
        // delivered twice: the second delivery's event waits behind the parked first one
        for (int delivery = 0; delivery < 2; delivery++) {
            Replays.sendFailure(producer, refusedSource, GROUP, utf8("k-refused"), utf8("{}"), "evt-refused", failedAt, ORDERS + ".dlq");
        }
        String[] others = new String[3];
        for (int i = 0; i < others.length; i++) {
            RecordMetadata source = send("k-other-" + i, "evt-other-" + i);
            others[i] = Replays.sendFailure(producer, source, GROUP, utf8("k-other-" + i), utf8("{}"), "evt-other-" + i, Instant.now(),
                    ORDERS + ".dlq");
        }

        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(Replays.incidentsOf(app, ORDERS)).contains(others).doesNotContain(refused);
            assertThat(parked("incident-summary")).contains("\"sequence\":\"" + refused + "\"").contains("forced by ParkedEventsIT");
        });
        // only the group that failed parked it: the incident's history and its point-in-time row are there
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM incident_history WHERE incident_id = ?", Integer.class, refused)).isPositive();
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM incident_status_interval WHERE incident_id = ?", Integer.class, refused))
                .isPositive();
        assertThat(parked("incident-history")).contains("\"total\":0");
        // parked is not stalled: the processor moved on, so readiness stays up
        assertThat(RunningApp.get(app, "/actuator/health/readiness").statusCode()).isEqualTo(200);
        String id = parkedId("incident-summary", refused);

        // refused while the trigger stands: it stays parked, one attempt more
        HttpResponse<String> stillFailing = RunningApp.post(app, "/api/v1/parked-events/" + id + "/retry", "admin",
                "{\"reason\":\"try before the fix\"}");
        assertThat(stillFailing.statusCode()).as(stillFailing.body()).isEqualTo(200);
        assertThat(stillFailing.body()).contains("\"applied\":0").contains("\"stillParked\":1");
        assertThat(Replays.incidentsOf(app, ORDERS)).doesNotContain(refused);

        // only an admin acts on parked events; a viewer reads them
        assertThat(RunningApp.post(app, "/api/v1/parked-events/" + id + "/retry", "operator", "{\"reason\":\"not mine\"}").statusCode())
                .isEqualTo(403);
        assertThat(RunningApp.post(app, "/api/v1/parked-events/" + id + "/retry", "admin", "{}").statusCode()).isEqualTo(400);

        jdbc.execute("DROP TRIGGER it_refuse_summary");
        HttpResponse<String> retried = RunningApp.post(app, "/api/v1/parked-events/" + id + "/retry", "admin",
                "{\"reason\":\"trigger removed\"}");
        assertThat(retried.statusCode()).as(retried.body()).isEqualTo(200);
        assertThat(retried.body()).contains("\"applied\":1").contains("\"stillParked\":0");
        assertThat(Replays.incidentsOf(app, ORDERS)).contains(refused);
        assertThat(parked("incident-summary")).doesNotContain(refused);
        // the same record delivered twice is counted on its incident once it is applied: the later event waited behind it
        assertThat(RunningApp.get(app, "/api/v1/incidents/" + refused, "viewer", RunningApp.PASSWORD).body())
                .contains("\"duplicateDeliveries\":1");
        assertThat(RunningApp.post(app, "/api/v1/parked-events/" + id + "/retry", "admin", "{\"reason\":\"once more\"}").statusCode())
                .as("applied, so no longer parked").isEqualTo(404);
        await().atMost(WAIT).untilAsserted(() -> assertThat(RunningApp.get(app, "/api/v1/audit?principal=admin", "viewer",
                RunningApp.PASSWORD).body()).contains("ParkedEventsRetried").contains("trigger removed").contains("try before the fix"));
    }

    @Test
    void whileTheRollbackFactsHoldAParkedEventTheCheckIsUnknownAndAfterTheRetryItIsNot() throws Exception {
        RecordMetadata source = send("k-replayed", "evt-replayed");
        String incident = Replays.sendFailure(producer, source, GROUP, utf8("k-replayed"), utf8(VALUE), "evt-replayed", Instant.now(),
                ORDERS + ".dlq");
        await().atMost(WAIT).until(() -> Replays.statusOf(app, incident) != null);
        String before = rollbackReadiness().body();
        assertThat(before).contains("\"condition\":\"ROLLBACK_FACTS_COMPLETE\",\"status\":\"MET\"");

        jdbc.execute("CREATE TRIGGER it_refuse_attempt BEFORE INSERT ON replay_attempt FOR EACH ROW BEGIN IF NEW.incident_id = '" + incident
                + "' THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'forced by ParkedEventsIT'; END IF; END");
        HttpResponse<String> replay = Replays.requestReplay(app, incident);
        assertThat(replay.statusCode()).as(replay.body()).isEqualTo(202);

        await().atMost(WAIT).untilAsserted(() -> assertThat(parked("rollback-facts")).contains("\"sequence\":\"" + incident + "\""));
        HttpResponse<String> unknown = rollbackReadiness();
        assertThat(unknown.statusCode()).isEqualTo(503);
        assertThat(unknown.body()).contains("\"verdict\":\"UNKNOWN\"").contains("ROLLBACK_FACTS_COMPLETE").contains("parked");

        jdbc.execute("DROP TRIGGER it_refuse_attempt");
        HttpResponse<String> retried = RunningApp.post(app, "/api/v1/parked-events/retry", "admin",
                "{\"processingGroup\":\"rollback-facts\",\"reason\":\"replay_attempt fixed\"}");
        assertThat(retried.statusCode()).as(retried.body()).isEqualTo(200);
        assertThat(retried.body()).contains("\"applied\":1");
        assertThat(rollbackReadiness().body()).contains("\"condition\":\"ROLLBACK_FACTS_COMPLETE\",\"status\":\"MET\"");
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM replay_attempt WHERE incident_id = ?", Integer.class, incident)).isEqualTo(1);
    }

    @Test
    void anEvictedEventIsNeverAppliedAndTheEvictionIsAudited() throws Exception {
        RecordMetadata source = send("k-evicted", "evt-evicted");
        String evicted = Replays.sendFailure(producer, source, GROUP, utf8("k-evicted"), utf8("{}"), "evt-evicted", Instant.now(),
                ORDERS + ".dlq");
        refuseSummaryRowOf(evicted);
        await().atMost(WAIT).untilAsserted(() -> assertThat(parked("incident-summary")).contains("\"sequence\":\"" + evicted + "\""));
        String id = parkedId("incident-summary", evicted);
        jdbc.execute("DROP TRIGGER it_refuse_summary");

        assertThat(RunningApp.post(app, "/api/v1/parked-events/" + id + "/evict", "admin", "{\"reason\":\" \"}").statusCode()).isEqualTo(400);
        HttpResponse<String> evict = RunningApp.post(app, "/api/v1/parked-events/" + id + "/evict", "admin",
                "{\"reason\":\"its incident is a test fixture\"}");
        assertThat(evict.statusCode()).as(evict.body()).isEqualTo(200);
        assertThat(parked("incident-summary")).doesNotContain(evicted);
        assertThat(RunningApp.post(app, "/api/v1/parked-events/" + id + "/evict", "admin", "{\"reason\":\"again\"}").statusCode())
                .isEqualTo(404);
        assertThat(RunningApp.post(app, "/api/v1/parked-events/not-an-id/evict", "admin", "{\"reason\":\"x\"}").statusCode())
                .isEqualTo(400);
        assertThat(Replays.incidentsOf(app, ORDERS)).doesNotContain(evicted);
        await().atMost(WAIT).untilAsserted(() -> assertThat(RunningApp.get(app, "/api/v1/audit?principal=admin", "viewer",
                RunningApp.PASSWORD).body()).contains("ParkedEventEvicted").contains("its incident is a test fixture"));
    }

    private static void refuseSummaryRowOf(String incidentId) {
        jdbc.execute("CREATE TRIGGER it_refuse_summary BEFORE INSERT ON incident_summary FOR EACH ROW BEGIN IF NEW.incident_id = '"
                + incidentId + "' THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'forced by ParkedEventsIT'; END IF; END");
    }

    private static String parked(String processingGroup) throws Exception {
        HttpResponse<String> response = RunningApp.get(app, "/api/v1/parked-events?processingGroup=" + processingGroup, "viewer",
                RunningApp.PASSWORD);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return response.body();
    }

    /** The id of the sequence's head in the group's list. */
    private static String parkedId(String processingGroup, String sequence) throws Exception {
        String body = parked(processingGroup);
        int at = body.indexOf("\"sequence\":\"" + sequence + "\"");
        assertThat(at).as(body).isNotNegative();
        int start = body.lastIndexOf("{", at);
        Matcher matcher = PARKED_ID.matcher(body.substring(start, at));
        assertThat(matcher.find()).as(body).isTrue();
        return matcher.group(1);
    }

    private static HttpResponse<String> rollbackReadiness() throws Exception {
        return RunningApp.get(app, "/api/v1/rollback-readiness", "deployer", RunningApp.PASSWORD);
    }

    private static RecordMetadata send(String key, String eventId) throws Exception {
        return producer.send(Replays.record(ORDERS, 0, Instant.now().toEpochMilli(), utf8(key), utf8(VALUE), eventId))
                .get(30, TimeUnit.SECONDS);
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}

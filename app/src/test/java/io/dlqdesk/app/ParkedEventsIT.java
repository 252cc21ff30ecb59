package io.dlqdesk.app;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.replay.outbox.OutboxRowOnRequest;
import io.dlqdesk.replay.saga.ReplaySaga;
import io.dlqdesk.testsupport.DltRecord;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.EventProcessor;
import org.axonframework.eventhandling.StreamingEventProcessor;
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
    private static final String EVENTS = "it-" + NONCE + "-incident-events";
    private static final Pattern PARKED_ID = Pattern.compile("\"id\":\"([0-9a-f-]{36})\"");

    private static ConfigurableApplicationContext app;
    private static KafkaProducer<byte[], byte[]> producer;
    private static JdbcTemplate jdbc;

    private static KafkaBroker kafka;

    @BeforeAll
    static void start(TestDatabase database, KafkaBroker broker) throws Exception {
        kafka = broker;
        IngestLedger.createTopic(broker, ORDERS, 1, Map.of());
        // the events topic takes records up to 8 KB: an incident event carrying a long exception message is too large for it
        IngestLedger.createTopic(broker, EVENTS, 1, Map.of("max.message.bytes", "8192"));
        IngestLedger.createTopic(broker, ORDERS + ".dlq", 1, Map.of());
        app = Replays.service(database, broker, NONCE, Map.ofEntries(
                Map.entry("dlqdesk.replay.allowed-topics", "it-.*"),
                Map.entry("dlqdesk.replay.poll-interval", "200ms"),
                Map.entry("dlqdesk.rollback.observation-interval", "200ms"),
                Map.entry("dlqdesk.rollback.read-model-wait", "3s"),
                Map.entry("dlqdesk.processors.stall-timeout", "10s"),
                // a failed batch's segment is released and claimed again at the coordinator's next claim round: Axon's 5 s
                // made each of the attempts before a parking wait 5 s; at 500 ms the same attempts run within a second or two
                Map.entry("axon.eventhandling.processors.incident-read-models.token-claim-interval", "500"),
                Map.entry("axon.eventhandling.processors.rollback-facts.token-claim-interval", "500"),
                Map.entry("axon.eventhandling.processors.replay-saga.token-claim-interval", "500")));
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
        jdbc.execute("DROP TRIGGER IF EXISTS it_refuse_outbox");
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
            others[i] = Replays.sendFailure(producer, source, GROUP, utf8("k-other-" + i), utf8("{}"), "evt-other-" + i, Instant.ofEpochMilli(source.timestamp()),
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
        String incident = Replays.sendFailure(producer, source, GROUP, utf8("k-replayed"), utf8(VALUE), "evt-replayed", Instant.ofEpochMilli(source.timestamp()),
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
        String evicted = Replays.sendFailure(producer, source, GROUP, utf8("k-evicted"), utf8("{}"), "evt-evicted", Instant.ofEpochMilli(source.timestamp()),
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

    /**
     * The replay saga, which Axon 4 gives no dead-letter queue, parks an event it fails on in its own queue and goes on; a
     * retry hands it to the saga again. Here its backstop write of the outbox row is refused (the request's own write was
     * bypassed, its processor stopped), so the retried event is what writes the row the replay is then published from.
     */
    @Test
    void aSagaEventThatFailsIsParkedAndARetryRunsTheSagaAgain() throws Exception {
        EventProcessingConfiguration processing = app.getBean(EventProcessingConfiguration.class);
        StreamingEventProcessor saga = processing.eventProcessorByProcessingGroup(ReplaySaga.PROCESSING_GROUP, StreamingEventProcessor.class)
                .orElseThrow();
        EventProcessor rowOnRequest = processing.eventProcessorByProcessingGroup(OutboxRowOnRequest.PROCESSING_GROUP).orElseThrow();
        RecordMetadata source = send("k-saga", "evt-saga");
        String incident = Replays.sendFailure(producer, source, GROUP, utf8("k-saga"), utf8(VALUE), "evt-saga",
                Instant.ofEpochMilli(source.timestamp()), ORDERS + ".dlq");
        await().atMost(WAIT).until(() -> Replays.statusOf(app, incident) != null);
        saga.shutDown();
        rowOnRequest.shutDown();
        try {
            HttpResponse<String> replay = Replays.requestReplay(app, incident);
            assertThat(replay.statusCode()).as(replay.body()).isEqualTo(202);
            jdbc.execute("CREATE TRIGGER it_refuse_outbox BEFORE INSERT ON replay_outbox FOR EACH ROW BEGIN IF NEW.incident_id = '" + incident
                    + "' THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'forced by ParkedEventsIT'; END IF; END");
        } finally {
            rowOnRequest.start();
            saga.start();
        }
        await().atMost(WAIT).untilAsserted(() -> assertThat(parked("replay-saga")).contains("\"sequence\":\"" + incident + "\"")
                .contains("forced by ParkedEventsIT"));
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM replay_outbox WHERE incident_id = ?", Integer.class, incident)).isZero();

        jdbc.execute("DROP TRIGGER it_refuse_outbox");
        HttpResponse<String> retried = RunningApp.post(app, "/api/v1/parked-events/" + parkedId("replay-saga", incident) + "/retry", "admin",
                "{\"reason\":\"outbox trigger removed\"}");
        assertThat(retried.statusCode()).as(retried.body()).isEqualTo(200);
        assertThat(retried.body()).contains("\"applied\":1");
        // the row the retried saga wrote is published, and the result recorded
        await().atMost(WAIT).until(() -> Replays.events(app, incident, "PublishResultRecorded") == 1);
        assertThat(Replays.lastPayload(app, incident, "PublishResultRecorded")).contains("\"status\":\"PUBLISHED\"");
    }

    /**
     * A failure that is not the event's own (here a serialization failure the database reports for one incident's row, as
     * a deadlock would be) is retried without end and parks nothing: the processor stands still, and readiness says so,
     * naming it, until the cause is gone.
     */
    @Test
    void aProcessorStandingStillTurnsReadinessDownNamingItUntilItMovesAgain() throws Exception {
        RecordMetadata source = send("k-stall", "evt-stall");
        String stalled = IncidentId.of(new FailureKey(ORDERS, 0, source.offset(), GROUP)).value();
        jdbc.execute("CREATE TRIGGER it_refuse_summary BEFORE INSERT ON incident_summary FOR EACH ROW BEGIN IF NEW.incident_id = '" + stalled
                + "' THEN SIGNAL SQLSTATE '40001' SET MESSAGE_TEXT = 'serialization failure forced by ParkedEventsIT'; END IF; END");
        assertThat(RunningApp.get(app, "/actuator/health/readiness").statusCode()).as("ready before").isEqualTo(200);
        Replays.sendFailure(producer, source, GROUP, utf8("k-stall"), utf8(VALUE), "evt-stall", Instant.ofEpochMilli(source.timestamp()),
                ORDERS + ".dlq");

        await().atMost(WAIT).untilAsserted(() -> assertThat(RunningApp.get(app, "/actuator/health/readiness").statusCode()).isEqualTo(503));
        String details = RunningApp.get(app, "/actuator/health/readiness", "admin", RunningApp.PASSWORD).body();
        assertThat(details).contains("\"eventProcessors\"").contains("incident-read-models/").contains("unchangedForSeconds");
        assertThat(parked("incident-summary")).as("not the event's own: nothing parked").doesNotContain(stalled);

        jdbc.execute("DROP TRIGGER it_refuse_summary");
        await().atMost(WAIT).untilAsserted(() -> assertThat(RunningApp.get(app, "/actuator/health/readiness").statusCode()).isEqualTo(200));
        assertThat(Replays.incidentsOf(app, ORDERS)).contains(stalled);
    }

    /** The broker refuses an event for its own sake (too large for the events topic): the publisher parks it and the rest go out. */
    @Test
    void anEventTheEventsTopicRefusesIsParkedByThePublisherAndTheOthersArePublished() throws Exception {
        FailureKey tooLarge = new FailureKey(ORDERS, 0, 7_000_000, GROUP);
        // a 16 KiB key (the desk keeps up to 64 KiB) makes every event of its incident larger than the topic takes
        producer.send(DltRecord.failure(tooLarge.topic(), 0, tooLarge.offset(), GROUP).key(new byte[16 * 1024]).to(ORDERS + ".dlq", 0))
                .get(30, TimeUnit.SECONDS);
        FailureKey ordinary = new FailureKey(ORDERS, 0, 7_000_001, GROUP);
        producer.send(DltRecord.failure(ordinary.topic(), 0, ordinary.offset(), GROUP).to(ORDERS + ".dlq", 0)).get(30, TimeUnit.SECONDS);
        String refused = IncidentId.of(tooLarge).value();
        String published = IncidentId.of(ordinary).value();

        await().atMost(WAIT).untilAsserted(() -> assertThat(parked("incident-events-kafka-publisher"))
                .contains("\"sequence\":\"" + refused + "\"").contains("RecordTooLargeException"));
        assertThat(EventsTopic.mentions(EventsTopic.readUntil(kafka, EVENTS, WAIT, records -> EventsTopic.mentions(records, published)),
                refused)).as("the refused event is not on the topic").isFalse();
        assertThat(Replays.incidentsOf(app, ORDERS)).as("the read models have both").contains(refused, published);

        String id = parkedId("incident-events-kafka-publisher", refused);
        HttpResponse<String> evicted = RunningApp.post(app, "/api/v1/parked-events/" + id + "/evict", "admin",
                "{\"reason\":\"larger than the events topic takes; consumers read the incident from the API\"}");
        assertThat(evicted.statusCode()).as(evicted.body()).isEqualTo(200);
        assertThat(parked("incident-events-kafka-publisher")).doesNotContain(refused);
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

package io.dlqdesk.app;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.record.RecordLocation;
import io.dlqdesk.replay.outbox.OutboxPoller;
import io.dlqdesk.replay.outbox.OutboxRow;
import io.dlqdesk.replay.outbox.OutboxRowOnRequest;
import io.dlqdesk.replay.outbox.ReplayOutbox;
import io.dlqdesk.replay.saga.ReplaySaga;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.EventProcessor;
import org.axonframework.eventhandling.StreamingEventProcessor;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Replay when things break: the broker down while a replay waits, a result decided but never
 * recorded, an outbox row that vanished. The poller runs only when a test says so (its interval is
 * an hour here), so each step happens in a known order.
 */
@RealInfrastructure
class ReplayFaultIT {

    private static final String NONCE = "f" + System.nanoTime();
    private static final String ORDERS = Replays.ordersTopic(NONCE);
    private static final String GROUP = "billing";
    private static final Duration WAIT = Duration.ofSeconds(60);

    private static KafkaBroker broker;
    private static ConfigurableApplicationContext app;
    private static int sequence;

    @BeforeAll
    static void start(TestDatabase database, KafkaBroker kafka) throws Exception {
        broker = kafka;
        IngestLedger.createTopic(broker, ORDERS, 1, Map.of());
        IngestLedger.createTopic(broker, ORDERS + ".dlq", 1, Map.of());
        app = Replays.service(database, broker, NONCE, Map.of(
                "dlqdesk.replay.poll-interval", "1h",
                "dlqdesk.replay.max-tries", "3",
                "dlqdesk.replay.initial-backoff", "100ms",
                "dlqdesk.replay.source-read-timeout", "2s",
                "dlqdesk.replay.publish-timeout", "2s",
                "dlqdesk.replay.reconciliation-delay", "2s",
                "db-scheduler.polling-interval", "500ms"));
    }

    @AfterAll
    static void stop() {
        app.close();
    }

    @Test
    void aReplayWaitingWhileTheBrokerIsDownIsPublishedOnceItIsBack() throws Exception {
        String id = acceptedReplay();
        broker.stop();
        try {
            poll(); // the source cannot be read: one failed try, the row stays PENDING
            assertThat(row(id).status()).isEqualTo(OutboxRow.Status.PENDING);
            assertThat(row(id).tries()).isEqualTo(1);
        } finally {
            broker.start();
        }
        await().atMost(WAIT).until(() -> {
            poll();
            return Replays.events(app, id, "PublishResultRecorded") == 1;
        });
        assertThat(Replays.lastPayload(app, id, "PublishResultRecorded")).contains("\"status\":\"PUBLISHED\"");
    }

    @Test
    void aReplayWhoseTriesAllFailEndsPublishFailedWithTheReason() throws Exception {
        String id = acceptedReplay();
        broker.stop();
        try {
            await().atMost(WAIT).until(() -> {
                poll();
                return row(id).status() == OutboxRow.Status.FAILED;
            });
        } finally {
            broker.start();
        }
        assertThat(row(id).tries()).isEqualTo(3);
        assertThat(row(id).endOffsetAtDecision()).as("the broker was down at the decision: its end offset is unknown").isNull();
        await().atMost(WAIT).until(() -> Replays.events(app, id, "PublishResultRecorded") == 1);
        assertThat(Replays.lastPayload(app, id, "PublishResultRecorded")).contains("\"status\":\"PUBLISH_FAILED\"", "after 3 tries",
                "\"endOffsetAtDecision\":null");
    }

    @Test
    void whileTheSwitchIsOffAnAcceptedReplayIsHeldAndItIsSentWhenTheSwitchIsOnAgain() throws Exception {
        String id = acceptedReplay();
        Replays.setSwitch(app, false);
        try {
            poll();
            assertThat(row(id).status()).isEqualTo(OutboxRow.Status.PENDING);
            assertThat(row(id).tries()).as("not even tried").isZero();
        } finally {
            Replays.setSwitch(app, true);
        }
        poll();
        assertThat(row(id).status()).isEqualTo(OutboxRow.Status.SENT);
        await().atMost(WAIT).until(() -> Replays.events(app, id, "PublishResultRecorded") == 1);
    }

    @Test
    void whileTheSwitchIsOffARowPastItsDeadlineIsFailedAndTheOthersAreHeld() throws Exception {
        String expired = acceptedReplay();
        String held = acceptedReplay();
        Replays.setSwitch(app, false);
        try {
            app.getBean(JdbcTemplate.class).update("UPDATE replay_outbox SET replay_deadline = TIMESTAMPADD(SECOND, -1, UTC_TIMESTAMP(6)) "
                    + "WHERE replay_id = ?", IncidentId.parse(expired).replayId(1));
            poll();
            assertThat(row(expired).status()).isEqualTo(OutboxRow.Status.FAILED);
            assertThat(row(expired).lastError()).contains("past the replay deadline");
            assertThat(row(held).status()).as("within its deadline: held, not tried").isEqualTo(OutboxRow.Status.PENDING);
            assertThat(row(held).tries()).isZero();
            await().atMost(WAIT).until(() -> Replays.events(app, expired, "PublishResultRecorded") == 1);
            assertThat(Replays.lastPayload(app, expired, "PublishResultRecorded")).contains("\"status\":\"PUBLISH_FAILED\"");
        } finally {
            Replays.setSwitch(app, true);
        }
        poll();
        assertThat(row(held).status()).isEqualTo(OutboxRow.Status.SENT);
    }

    @Test
    void aRowHeldPastItsReplayDeadlineIsNeverPublished() throws Exception {
        String id = acceptedReplay();
        app.getBean(JdbcTemplate.class).update("UPDATE replay_outbox SET replay_deadline = TIMESTAMPADD(SECOND, -1, UTC_TIMESTAMP(6)) "
                + "WHERE replay_id = ?", IncidentId.parse(id).replayId(1));
        long end = endOffset();
        poll();
        assertThat(row(id).status()).isEqualTo(OutboxRow.Status.FAILED);
        assertThat(row(id).lastError()).contains("past the replay deadline");
        assertThat(row(id).endOffsetAtDecision()).as("the target partition's end when it was decided").isEqualTo(end);
        await().atMost(WAIT).until(() -> Replays.events(app, id, "PublishResultRecorded") == 1);
        assertThat(Replays.lastPayload(app, id, "PublishResultRecorded")).contains("\"status\":\"PUBLISH_FAILED\"",
                "\"endOffsetAtDecision\":" + end);
    }

    /**
     * The saga lags and the row's write at request time was bypassed (its processor stopped): an admin marks the
     * attempt unknown before its row exists; the row the saga writes later is never published.
     */
    @Test
    void anAttemptMarkedUnknownBeforeTheSagaWroteItsRowIsNeverPublished() throws Exception {
        StreamingEventProcessor saga = app.getBean(EventProcessingConfiguration.class)
                .eventProcessorByProcessingGroup(ReplaySaga.PROCESSING_GROUP, StreamingEventProcessor.class).orElseThrow();
        EventProcessor rowOnRequest = app.getBean(EventProcessingConfiguration.class)
                .eventProcessorByProcessingGroup(OutboxRowOnRequest.PROCESSING_GROUP).orElseThrow();
        saga.shutDown();
        rowOnRequest.shutDown();
        String id;
        try {
            id = incidentWithAcceptedReplay();
            assertThat(app.getBean(ReplayOutbox.class).find(IncidentId.parse(id).replayId(1))).isEmpty();
            assertThat(RunningApp.post(app, "/api/v1/incidents/" + id + "/attempts/1/publish-unknown", "admin",
                    "{\"reason\":\"no row after an hour\"}").statusCode()).isEqualTo(204);
        } finally {
            rowOnRequest.start();
            saga.start();
        }
        await().atMost(WAIT).until(() -> app.getBean(JdbcTemplate.class).queryForObject(
                "SELECT COUNT(*) FROM saga_entry WHERE saga_type LIKE '%ReplaySaga'", Integer.class) == 0
                && saga.processingStatus().values().stream().allMatch(status -> status.isCaughtUp()));
        poll();
        assertThat(row(id).status()).isEqualTo(OutboxRow.Status.ABANDONED);
        assertThat(Replays.events(app, id, "PublishResultRecorded")).isZero();
    }

    /** The poller committed its decision and stopped before reporting it: the saga's deadline reports it. */
    @Test
    void aDecisionThatWasNeverRecordedIsRecordedByTheReconciliationDeadline() throws Exception {
        String id = acceptedReplay();
        RecordLocation somewhere = new RecordLocation(ORDERS, 0, 12_345);
        app.getBean(ReplayOutbox.class).markSent(IncidentId.parse(id).replayId(1), somewhere);
        await().atMost(WAIT).until(() -> Replays.events(app, id, "PublishResultRecorded") == 1);
        assertThat(Replays.lastPayload(app, id, "PublishResultRecorded")).contains("\"status\":\"PUBLISHED\"", "\"offset\":12345");
    }

    @Test
    void aVanishedOutboxRowLeavesTheAttemptRequestedUntilAnAdminMarksItPublishUnknown() throws Exception {
        String id = acceptedReplay();
        String path = "/api/v1/incidents/" + id + "/attempts/1/publish-unknown";
        HttpResponse<String> whileTheRowExists = RunningApp.post(app, path, "admin", "{\"reason\":\"row lost?\"}");
        assertThat(whileTheRowExists.statusCode()).isEqualTo(409);
        assertThat(whileTheRowExists.body()).contains("OUTBOX_ROW_NOT_CONFIRMED_ABSENT");

        // the row is written with the request; the saga, which writes it again if it is absent, must have started
        // first, or it would put the deleted row back (its backstop doing its job)
        await().atMost(WAIT).until(() -> app.getBean(JdbcTemplate.class).queryForObject(
                "SELECT COUNT(*) FROM association_value_entry WHERE association_value = ?", Integer.class,
                IncidentId.parse(id).replayId(1)) > 0);
        app.getBean(JdbcTemplate.class).update("DELETE FROM replay_outbox WHERE replay_id = ?", IncidentId.parse(id).replayId(1));
        await().during(Duration.ofSeconds(5)).atMost(Duration.ofSeconds(8))
                .until(() -> Replays.events(app, id, "PublishResultRecorded") == 0); // never guessed failed
        assertThat(RunningApp.post(app, path, "operator", "{\"reason\":\"row is gone\"}").statusCode()).isEqualTo(403);
        long end = endOffset();
        assertThat(RunningApp.post(app, path, "admin", "{\"reason\":\"row is gone, checked the topic by hand\"}").statusCode()).isEqualTo(204);
        assertThat(Replays.lastPayload(app, id, "PublishMarkedUnknown")).contains("\"principal\":\"admin\"", "\"endOffsetAtDecision\":" + end);
        assertThat(Replays.requestReplay(app, id).body()).contains("\"PUBLISH_UNKNOWN\"");
    }

    /** Left by a mark whose two writes were not one transaction: the placeholder stood, the incident never heard. */
    @Test
    void aPlaceholderLeftWithoutItsDecisionDoesNotHoldTheAttemptRequestedForEver() throws Exception {
        String id = acceptedReplay();
        await().atMost(WAIT).until(() -> app.getBean(JdbcTemplate.class).queryForObject(
                "SELECT COUNT(*) FROM association_value_entry WHERE association_value = ?", Integer.class,
                IncidentId.parse(id).replayId(1)) > 0);
        app.getBean(JdbcTemplate.class).update("UPDATE replay_outbox SET status = 'ABANDONED' WHERE replay_id = ?",
                IncidentId.parse(id).replayId(1));

        HttpResponse<String> marked = RunningApp.post(app, "/api/v1/incidents/" + id + "/attempts/1/publish-unknown", "admin",
                "{\"reason\":\"the crash left the placeholder\"}");

        assertThat(marked.statusCode()).as(marked.body()).isEqualTo(204);
        assertThat(Replays.events(app, id, "PublishMarkedUnknown")).isEqualTo(1);
    }

    @Test
    void aRefusedPublishUnknownGivesTheOutboxRowsPlaceBack() throws Exception {
        String id = incident();
        String noSuchAttempt = IncidentId.parse(id).replayId(7);

        HttpResponse<String> refused = RunningApp.post(app, "/api/v1/incidents/" + id + "/attempts/7/publish-unknown", "admin",
                "{\"reason\":\"there is no attempt 7\"}");

        assertThat(refused.statusCode()).as(refused.body()).isBetween(400, 499);
        // its place was taken before the incident refused: left taken, a later attempt 7 could never be published
        assertThat(app.getBean(ReplayOutbox.class).find(noSuchAttempt)).isEmpty();
    }

    /** Sends a source record and its DLQ record, waits for the incident, and has a replay of it accepted (not yet published). */
    private static String acceptedReplay() throws Exception {
        String id = incidentWithAcceptedReplay();
        await().atMost(WAIT).until(() -> app.getBean(ReplayOutbox.class).find(IncidentId.parse(id).replayId(1)).isPresent());
        return id;
    }

    private static String incidentWithAcceptedReplay() throws Exception {
        String id = incident();
        HttpResponse<String> accepted = Replays.requestReplay(app, id);
        assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);
        return id;
    }

    /** Sends a source record and its DLQ record and waits for the incident. */
    private static String incident() throws Exception {
        int n = ++sequence;
        String eventId = "evt-" + NONCE + "-" + n;
        byte[] key = ("k-" + n).getBytes(StandardCharsets.UTF_8);
        byte[] value = ("{\"n\":" + n + "}").getBytes(StandardCharsets.UTF_8);
        String id;
        try (KafkaProducer<byte[], byte[]> producer = IngestLedger.producer(broker, Map.of())) {
            RecordMetadata source = producer.send(Replays.record(ORDERS, 0, Instant.now().toEpochMilli(), key, value, eventId))
                    .get(30, TimeUnit.SECONDS);
            id = Replays.sendFailure(producer, source, GROUP, key, value, eventId, Instant.ofEpochMilli(source.timestamp()), ORDERS + ".dlq");
        }
        await().atMost(WAIT).until(() -> Replays.statusOf(app, id) != null);
        return id;
    }

    private static OutboxRow row(String id) {
        return app.getBean(ReplayOutbox.class).find(IncidentId.parse(id).replayId(1)).orElseThrow();
    }

    /** The end offset of the one orders partition (nothing else writes to it while a test runs). */
    private static long endOffset() {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                broker.bootstrapServers()), new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            TopicPartition partition = new TopicPartition(ORDERS, 0);
            return consumer.endOffsets(List.of(partition)).get(partition);
        }
    }

    private static void poll() {
        app.getBean(OutboxPoller.class).pollOnce();
    }
}

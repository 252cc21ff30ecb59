package io.dlqdesk.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.projections.readiness.ReplayAttemptProjection;
import io.dlqdesk.replay.outbox.OutboxRowOnRequest;
import io.dlqdesk.replay.saga.ReplaySaga;
import io.dlqdesk.rollback.RollbackConfiguration;
import io.dlqdesk.testsupport.DatabaseServer;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestClock;
import io.dlqdesk.testsupport.TestDatabase;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.EventProcessor;
import org.axonframework.eventhandling.StreamingEventProcessor;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * GET /api/v1/rollback-readiness on the real database and broker. Every test starts from READY (the
 * "is allowed" half) and ends there; in between, one condition at a time is broken. The checker's
 * clock runs an hour ahead except in the retry-bound test, so earlier tests' decisions lie outside the
 * ten-minute retry bound configured here.
 */
@RealInfrastructure
class RollbackReadinessIT {

    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final Duration RETRY_BOUND = Duration.ofMinutes(10);
    private static final Duration PAST_THE_BOUND = Duration.ofHours(1);
    private static final String NONCE = "rb" + System.nanoTime();
    private static final String ORDERS = "it-" + NONCE + "-orders";
    private static final String STEADY = "it-" + NONCE + "-steady";
    private static final String DLQ = "it-" + NONCE + "-failures.dlq";
    private static final String INGEST_GROUP = "ingest-" + NONCE;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TestClock CLOCK = TestClock.systemShifted();

    private static ConfigurableApplicationContext app;
    private static KafkaBroker broker;
    private static KafkaProducer<byte[], byte[]> producer;
    private static JdbcTemplate jdbc;

    @BeforeAll
    static void start(TestDatabase database, KafkaBroker kafka) throws Exception {
        broker = kafka;
        IngestLedger.createTopic(broker, ORDERS, 1, Map.of());
        IngestLedger.createTopic(broker, STEADY, 1, Map.of());
        IngestLedger.createTopic(broker, DLQ, 1, Map.of());
        app = RunningApp.start(database, broker, Map.ofEntries(
                Map.entry("dlqdesk.ingest.topic-pattern", "it-" + NONCE + "-.*\\.dlq"),
                Map.entry("dlqdesk.ingest.group-id", INGEST_GROUP),
                Map.entry("dlqdesk.events-topic", "it-" + NONCE + "-incident-events"),
                Map.entry("dlqdesk.replay.allowed-topics", "it-.*"),
                Map.entry("dlqdesk.replay.poll-interval", "200ms"),
                // two failed tries end an attempt PUBLISH_FAILED: a refused mark after the ack must never count as one
                Map.entry("dlqdesk.replay.max-tries", "2"),
                Map.entry("dlqdesk.replay.mark-sent-retry-for", "10s"),
                Map.entry("dlqdesk.rollback.observation-interval", "300ms"),
                Map.entry("dlqdesk.rollback.consumer-retry-window", RETRY_BOUND.toString()),
                Map.entry("dlqdesk.rollback.ingest-delay", "0s"),
                Map.entry("dlqdesk.rollback.clock-skew-margin", "0s"),
                Map.entry("dlqdesk.rollback.read-model-wait", "6s"),
                Map.entry("dlqdesk.rollback.request-timeout", "3s")), Map.of(RollbackConfiguration.CLOCK, CLOCK));
        jdbc = app.getBean(JdbcTemplate.class);
        Replays.setSwitch(app, true);
        producer = IngestLedger.producer(broker, Map.of());
    }

    @AfterAll
    static void stop() {
        producer.close();
        app.close();
    }

    @BeforeEach
    void startsReady() {
        CLOCK.shift(PAST_THE_BOUND);
        awaitReady();
    }

    @Test
    void aPendingOutboxRowAloneIsNotReady() throws Exception {
        Replays.setSwitch(app, false); // the poller holds the row
        String replayId = Replays.strayPendingRow(jdbc, NONCE);
        try {
            Check check = check();
            assertThat(check.status()).isEqualTo(409);
            assertThat(check.unmet()).containsExactly("NO_PENDING_REPLAY");
            assertThat(check.condition("NO_PENDING_REPLAY").path("observed").path("pendingOutboxRows").asLong()).isEqualTo(1);
        } finally {
            jdbc.update("DELETE FROM replay_outbox WHERE replay_id = ?", replayId);
            Replays.setSwitch(app, true);
        }
        assertThat(check().verdict()).isEqualTo("READY");
    }

    /**
     * The saga lags (its processor is stopped) and the row's write at request time was bypassed (its processor
     * stopped too): the attempt is REQUESTED and has no outbox row yet.
     */
    @Test
    void anAttemptRequestedAloneIsNotReadyUntilItsOutcomeIsDecided() throws Exception {
        Failure failure = failedRecord(ORDERS, "billing-" + NONCE, "requested");
        StreamingEventProcessor saga = processor(ReplaySaga.PROCESSING_GROUP);
        EventProcessor rowOnRequest = app.getBean(EventProcessingConfiguration.class)
                .eventProcessorByProcessingGroup(OutboxRowOnRequest.PROCESSING_GROUP).orElseThrow();
        saga.shutDown();
        rowOnRequest.shutDown();
        try {
            assertThat(Replays.requestReplay(app, failure.incidentId()).statusCode()).isEqualTo(202);
            await().atMost(WAIT).until(() -> "REQUESTED".equals(attemptStatus(failure.incidentId())));

            Check check = check();
            assertThat(check.status()).isEqualTo(409);
            assertThat(check.unmet()).containsExactly("NO_ATTEMPT_REQUESTED");
            assertThat(check.condition("NO_ATTEMPT_REQUESTED").path("observed").path("requestedAttempts").asLong()).isEqualTo(1);

            // an admin decides the outcome is unknown: the row's place is taken, so the saga can never publish it
            long end = endOffset(new TopicPartition(ORDERS, 0));
            assertThat(RunningApp.post(app, "/api/v1/incidents/" + failure.incidentId() + "/attempts/1/publish-unknown", "admin",
                    "{\"reason\":\"saga stuck\"}").statusCode()).isEqualTo(204);
            await().atMost(WAIT).until(() -> "PUBLISH_UNKNOWN".equals(attemptStatus(failure.incidentId())));
            assertThat(jdbc.queryForObject("SELECT decided_at FROM replay_attempt WHERE incident_id = ? AND attempt = 1", java.time.LocalDateTime.class,
                    failure.incidentId())).as("the mark is the decision the retry bound counts from").isNotNull();

            // it may have gone out all the same, below the end offset read when it was marked: the group must reach it
            Check unknown = check();
            assertThat(unknown.unmet()).as(unknown.body()).containsExactly("REPLAYS_CONSUMED");
            JsonNode notConsumed = unknown.condition("REPLAYS_CONSUMED").path("observed").path("maybePublishedNotConsumed");
            assertThat(notConsumed).hasSize(1);
            assertThat(notConsumed.get(0).path("targetGroup").asText()).isEqualTo(failure.group());
            assertThat(notConsumed.get(0).path("endOffsetAtDecision").asLong()).isEqualTo(end);
            assertThat(notConsumed.get(0).path("committedOffset").asText()).isEqualTo("none");
            commit(failure.group(), end);
        } finally {
            rowOnRequest.start();
            saga.start();
        }
        awaitReady();
    }

    @Test
    void aReadModelBehindTheEventStoreIsNotReady() throws Exception {
        StreamingEventProcessor facts = processor(ReplayAttemptProjection.PROCESSING_GROUP);
        facts.shutDown();
        try {
            failedRecord(ORDERS, "audit-" + NONCE, "unseen"); // a new event the stopped read model cannot reach

            Check check = check();
            assertThat(check.status()).isEqualTo(409);
            assertThat(check.unmet()).containsExactly("NO_ATTEMPT_REQUESTED");
            JsonNode observed = check.condition("NO_ATTEMPT_REQUESTED").path("observed");
            assertThat(observed.path("readModelPosition").asLong()).isLessThan(observed.path("eventStoreHead").asLong());
        } finally {
            facts.start();
        }
        awaitReady();
    }

    @Test
    void aReplayTheTargetGroupHasNotConsumedYetIsNotReady() throws Exception {
        String group = "shipping-" + NONCE;
        Failure failure = failedRecord(ORDERS, group, "unconsumed");
        commit(group, failure.source().offset() + 1); // the group dead-lettered the record and went on
        long replayed = replayAndAwaitPublished(failure);

        Check check = check();
        assertThat(check.status()).isEqualTo(409);
        assertThat(check.unmet()).containsExactly("REPLAYS_CONSUMED");
        JsonNode notConsumed = check.condition("REPLAYS_CONSUMED").path("observed").path("replaysNotConsumed");
        assertThat(notConsumed).hasSize(1);
        assertThat(notConsumed.get(0).path("targetGroup").asText()).isEqualTo(group);
        assertThat(notConsumed.get(0).path("replayedOffset").asLong()).isEqualTo(replayed);
        assertThat(notConsumed.get(0).path("committedOffset").asLong()).isEqualTo(failure.source().offset() + 1);

        commit(group, replayed); // reached the replay, not past it
        assertThat(check().unmet()).containsExactly("REPLAYS_CONSUMED");

        commit(group, replayed + 1);
        assertThat(check().verdict()).isEqualTo("READY");
    }

    @Test
    void underSteadyTrafficAReplayedRecordTheGroupConsumedIsReady() throws Exception {
        String group = "steady-" + NONCE;
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicLong sent = new AtomicLong();
        Thread traffic = new Thread(() -> {
            while (running.get()) {
                producer.send(new ProducerRecord<>(STEADY, 0, null, ("tick-" + sent.incrementAndGet()).getBytes(StandardCharsets.UTF_8)));
                sleep(5);
            }
        }, "steady-traffic");
        Thread consumer = new Thread(() -> consumeUntilStopped(group, running), "steady-consumer");
        traffic.start();
        consumer.start();
        try {
            Failure failure = failedRecord(STEADY, group, "steady");
            long replayed = replayAndAwaitPublished(failure);

            await().atMost(WAIT).until(() -> "READY".equals(check().verdict()));
            long end = endOffset(new TopicPartition(STEADY, 0));
            assertThat(end).as("traffic went on after the replay").isGreaterThan(replayed + 50);
        } finally {
            running.set(false);
            traffic.join();
            consumer.join();
        }
        assertThat(sent.get()).isGreaterThan(50);
    }

    /** Ingest cannot store this one failure (the database refuses its event), so it keeps retrying it and commits nothing past it. */
    @Test
    void theIngestGroupBehindTheDlqIsNotReady() throws Exception {
        String group = "late-" + NONCE;
        RecordMetadata source = producer.send(Replays.record(ORDERS, 0, System.currentTimeMillis(), bytes("k-behind"), bytes("{}"),
                "evt-behind-" + NONCE)).get(30, TimeUnit.SECONDS);
        String id = IncidentId.of(new FailureKey(ORDERS, 0, source.offset(), group)).value();
        // every refusal is written to a non-transactional table first, so it stays when the SIGNAL rolls the insert back
        jdbc.execute("CREATE TABLE IF NOT EXISTS it_ingest_refusals (aggregate_identifier VARCHAR(36) NOT NULL) ENGINE = MyISAM");
        jdbc.execute("DROP TRIGGER IF EXISTS it_ingest_stuck");
        jdbc.execute("CREATE TRIGGER it_ingest_stuck BEFORE INSERT ON domain_event_entry FOR EACH ROW BEGIN "
                + "IF NEW.aggregate_identifier = '" + id + "' THEN INSERT INTO it_ingest_refusals VALUES (NEW.aggregate_identifier); "
                + "SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'ingest stuck'; END IF; END");
        try {
            Replays.sendFailure(producer, source, group, bytes("k-behind"), bytes("{}"), "evt-behind-" + NONCE, Instant.ofEpochMilli(source.timestamp()), DLQ);
            // ingest took the record and was refused twice: it is held on it, not merely slow to get there
            await().atMost(WAIT).until(() -> jdbc.queryForObject("SELECT COUNT(*) FROM it_ingest_refusals WHERE aggregate_identifier = ?",
                    Integer.class, id) >= 2);

            Check check = check();
            assertThat(check.status()).isEqualTo(409);
            assertThat(check.unmet()).containsExactly("REPLAYS_CONSUMED");
            JsonNode behind = check.condition("REPLAYS_CONSUMED").path("observed").path("dlqPartitionsBehind");
            assertThat(behind).hasSize(1);
            assertThat(behind.get(0).path("topic").asText()).isEqualTo(DLQ);
            assertThat(Replays.statusOf(app, id)).as("not stored yet").isNull();
        } finally {
            jdbc.execute("DROP TRIGGER IF EXISTS it_ingest_stuck");
        }
        awaitReady();
        assertThat(Replays.statusOf(app, id)).isEqualTo("OPEN");
    }

    /**
     * A DLQ record inside an open transaction may still commit: not READY. Once committed and ingested,
     * the commit marker after it stays ahead of the ingest group's offset (read_committed consumers commit
     * the record's offset + 1), and holds no record: READY.
     */
    @Test
    void aDlqRecordInAnOpenTransactionIsNotReadyAndItsCommitMarkerDoesNotHoldTheIngestGroupBack() throws Exception {
        TopicPartition dlq = new TopicPartition(DLQ, 0);
        RecordMetadata source = producer.send(Replays.record(ORDERS, 0, System.currentTimeMillis(), bytes("k-tx"), bytes("{}"),
                "evt-tx-" + NONCE)).get(30, TimeUnit.SECONDS);
        String id;
        try (KafkaProducer<byte[], byte[]> transactional = IngestLedger.producer(broker,
                Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "tx-" + NONCE))) {
            transactional.initTransactions();
            transactional.beginTransaction();
            id = Replays.sendFailure(transactional, source, "tx-group-" + NONCE, bytes("k-tx"), bytes("{}"), "evt-tx-" + NONCE,
                    Instant.ofEpochMilli(source.timestamp()), DLQ);

            Check open = check();
            assertThat(open.status()).isEqualTo(409);
            assertThat(open.unmet()).containsExactly("REPLAYS_CONSUMED");
            assertThat(open.condition("REPLAYS_CONSUMED").path("observed").path("dlqPartitionsBehind")).hasSize(1);

            transactional.commitTransaction();
        }
        await().atMost(WAIT).until(() -> Replays.statusOf(app, id) != null);
        long end = endOffset(dlq);
        await().atMost(WAIT).until(() -> Long.valueOf(end - 1).equals(broker.committedOffset(INGEST_GROUP, dlq)));

        Check check = check();
        assertThat(check.verdict()).as(check.body()).isEqualTo("READY");
        assertThat(broker.committedOffset(INGEST_GROUP, dlq)).as("the marker is still ahead of the committed offset").isEqualTo(end - 1);
    }

    /**
     * The broker acknowledged; then the database refused to mark the row SENT three times (more than max-tries): the
     * poller keeps writing the mark, counts no failed try, and the attempt ends PUBLISHED, never PUBLISH_FAILED.
     */
    @Test
    void anAcknowledgedSendWhoseRowUpdateFailsEndsPublishedNeverPublishFailed() throws Exception {
        String group = "acked-" + NONCE;
        Failure failure = failedRecord(ORDERS, group, "acked");
        commit(group, failure.source().offset() + 1);
        double failedTries = counter("dlq.replay.failed_tries");
        refuseSentMarks(failure.incidentId(), 3);
        try {
            long replayed = replayAndAwaitPublished(failure);

            assertThat(refusedSentMarks(failure.incidentId())).as("the SENT mark was refused after the ack").isEqualTo(3);
            assertThat(Replays.events(app, failure.incidentId(), "PublishResultRecorded")).isEqualTo(1);
            assertThat(Replays.lastPayload(app, failure.incidentId(), "PublishResultRecorded")).contains("\"status\":\"PUBLISHED\"");
            assertThat(jdbc.queryForObject("SELECT tries FROM replay_outbox WHERE incident_id = ?", Integer.class, failure.incidentId()))
                    .as("only the SENT mark counts as a try").isEqualTo(1);
            assertThat(counter("dlq.replay.failed_tries")).isEqualTo(failedTries);
            assertThat(check().unmet()).containsExactly("REPLAYS_CONSUMED");
            commit(group, replayed + 1);
        } finally {
            allowSentMarks();
        }
        awaitReady();
    }

    /**
     * A replay went out (acknowledged, its SENT mark refused), then its row passed its replay deadline and the attempt
     * ended PUBLISH_FAILED with the partition's end offset at that moment: NOT_READY while the target group is below that
     * offset — one below is still refused — and READY once it reaches it.
     */
    @Test
    void aPublishFailedAttemptWhoseRecordLandedIsNotReadyUntilTheTargetGroupReachesTheEndOffsetRecordedAtItsDecision() throws Exception {
        String group = "landed-" + NONCE;
        Failure failure = failedRecord(ORDERS, group, "landed");
        commit(group, failure.source().offset() + 1);
        TopicPartition orders = new TopicPartition(ORDERS, 0);
        refuseSentMarks(failure.incidentId(), Integer.MAX_VALUE);
        long end;
        try {
            assertThat(Replays.requestReplay(app, failure.incidentId()).statusCode()).isEqualTo(202);
            await().atMost(WAIT).until(() -> !Replays.replaysOn(broker, orders, failure.source().offset() + 1, failure.incidentId()).isEmpty());
            jdbc.update("UPDATE replay_outbox SET replay_deadline = TIMESTAMPADD(SECOND, -1, UTC_TIMESTAMP(6)) WHERE incident_id = ?",
                    failure.incidentId());
            await().atMost(WAIT).until(() -> "PUBLISH_FAILED".equals(attemptStatus(failure.incidentId())));
            end = jdbc.queryForObject("SELECT end_offset_at_decision FROM replay_attempt WHERE incident_id = ? AND attempt = 1", Long.class,
                    failure.incidentId());
        } finally {
            allowSentMarks();
        }
        List<Long> landed = Replays.replaysOn(broker, orders, failure.source().offset() + 1, failure.incidentId()).stream()
                .map(record -> record.offset()).toList();
        assertThat(landed).as("the replay did go out").isNotEmpty().allSatisfy(offset -> assertThat(offset).isLessThan(end));
        assertThat(Replays.lastPayload(app, failure.incidentId(), "PublishResultRecorded"))
                .contains("\"status\":\"PUBLISH_FAILED\"", "\"endOffsetAtDecision\":" + end);

        Check check = check();
        assertThat(check.status()).isEqualTo(409);
        assertThat(check.unmet()).containsExactly("REPLAYS_CONSUMED");
        JsonNode notConsumed = check.condition("REPLAYS_CONSUMED").path("observed").path("maybePublishedNotConsumed");
        assertThat(notConsumed).hasSize(1);
        assertThat(notConsumed.get(0).path("targetGroup").asText()).isEqualTo(group);
        assertThat(notConsumed.get(0).path("endOffsetAtDecision").asLong()).isEqualTo(end);
        assertThat(notConsumed.get(0).path("committedOffset").asLong()).isEqualTo(failure.source().offset() + 1);

        commit(group, end - 1); // the last replay that landed is not read yet
        Check below = check();
        assertThat(below.unmet()).as(below.body()).containsExactly("REPLAYS_CONSUMED");
        assertThat(below.condition("REPLAYS_CONSUMED").path("observed").path("maybePublishedNotConsumed")).hasSize(1);

        commit(group, end);
        Check reached = check();
        assertThat(reached.verdict()).as(reached.body()).isEqualTo("READY");
    }

    /** No horizon: a replay its group never consumed holds the check however long ago it was decided, until an admin waives it. */
    @Test
    void aReplayNobodyConsumedHoldsTheCheckHoweverOldUntilAnAdminWaivesIt() throws Exception {
        String group = "retired-" + NONCE;
        Failure failure = failedRecord(ORDERS, group, "retired");
        replayAndAwaitPublished(failure); // its group is gone: it never reads it

        CLOCK.shift(Duration.ofDays(30)); // a month later
        Check held = check();
        assertThat(held.unmet()).as(held.body()).containsExactly("REPLAYS_CONSUMED");
        assertThat(held.condition("REPLAYS_CONSUMED").path("observed").path("replaysNotConsumed").toString()).contains(group);

        String path = "/api/v1/incidents/" + failure.incidentId() + "/attempts/1/waive-consumption";
        assertThat(RunningApp.post(app, path, "operator", "{\"reason\":\"not mine to waive\"}").statusCode()).isEqualTo(403);
        assertThat(RunningApp.post(app, path, "admin", "{}").statusCode()).as("a reason is required").isEqualTo(400);
        HttpResponse<String> waived = RunningApp.post(app, path, "admin", "{\"reason\":\"" + group + " was retired\"}");
        assertThat(waived.statusCode()).as(waived.body()).isEqualTo(204);

        await().atMost(WAIT).untilAsserted(() -> {
            Check ready = check();
            assertThat(ready.verdict()).as(ready.body()).isEqualTo("READY");
            JsonNode observed = ready.condition("REPLAYS_CONSUMED").path("observed");
            assertThat(observed.path("waivedAttempts").asLong()).isPositive();
            assertThat(observed.path("recentWaivers").toString()).contains(failure.incidentId()).contains(group + " was retired")
                    .contains("\"waivedBy\":\"admin\"");
        });
        HttpResponse<String> again = RunningApp.post(app, path, "admin", "{\"reason\":\"twice\"}");
        assertThat(again.statusCode()).isEqualTo(409);
        assertThat(again.body()).contains("ALREADY_WAIVED");
    }

    @Test
    void aDecisionInsideTheRetryBoundIsNotReadyUntilTheClockPassesIt() throws Exception {
        String group = "retry-" + NONCE;
        Failure failure = failedRecord(ORDERS, group, "retry");
        long replayed = replayAndAwaitPublished(failure);
        commit(group, replayed + 1);

        CLOCK.shift(Duration.ZERO);
        Check check = check();
        assertThat(check.status()).isEqualTo(409);
        assertThat(check.unmet()).containsExactly("RETRY_BOUND_PASSED");

        CLOCK.shift(RETRY_BOUND.plusMinutes(1));
        assertThat(check().verdict()).isEqualTo("READY");
    }

    @Test
    void theDatabaseDownIsUnknown(DatabaseServer server) throws Exception {
        Assumptions.assumeTrue(server.restartable(), () -> server.description() + " cannot be stopped by tests");
        server.stop();
        try {
            long started = System.nanoTime();
            Check check = check();
            // the pool would wait 30 s for a connection (Hikari's default, kept here): the check's own bound answers first
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(20));
            assertThat(check.status()).isEqualTo(503);
            assertThat(check.verdict()).isEqualTo("UNKNOWN");
            assertThat(check.condition("NO_PENDING_REPLAY").path("status").asText()).isEqualTo("UNKNOWN");
            assertThat(check.condition("NO_PENDING_REPLAY").path("explanation").asText()).contains("database");
        } finally {
            server.start();
        }
        awaitReady();
    }

    @Test
    void theBrokerDownIsUnknown() throws Exception {
        Assumptions.assumeTrue(broker.restartable(), () -> broker.description() + " cannot be stopped by tests");
        broker.stop();
        try {
            Check check = check();
            assertThat(check.status()).isEqualTo(503);
            assertThat(check.verdict()).isEqualTo("UNKNOWN");
            assertThat(check.condition("REPLAYS_CONSUMED").path("status").asText()).isEqualTo("UNKNOWN");
            assertThat(check.condition("REPLAYS_CONSUMED").path("explanation").asText()).contains("broker");
            assertThat(check.condition("NO_PENDING_REPLAY").path("status").asText()).isEqualTo("MET");
        } finally {
            broker.start();
        }
        awaitReady();
    }

    // --- the pieces ---

    private record Failure(RecordMetadata source, String incidentId, String group) {
    }

    /** A record on {@code topic} that {@code group} failed on and dead-lettered; returns once its incident is open. */
    private static Failure failedRecord(String topic, String group, String name) throws Exception {
        String eventId = "evt-" + name + "-" + NONCE;
        byte[] key = bytes("k-" + name);
        byte[] value = bytes("{\"order\":\"" + name + "\"}");
        RecordMetadata source = producer.send(Replays.record(topic, 0, System.currentTimeMillis(), key, value, eventId)).get(30, TimeUnit.SECONDS);
        String id = Replays.sendFailure(producer, source, group, key, value, eventId, Instant.ofEpochMilli(source.timestamp()), DLQ);
        await().atMost(WAIT).until(() -> Replays.statusOf(app, id) != null);
        return new Failure(source, id, group);
    }

    /** The offset the replay was published at. */
    private static long replayAndAwaitPublished(Failure failure) throws Exception {
        HttpResponse<String> accepted = Replays.requestReplay(app, failure.incidentId());
        assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);
        await().atMost(WAIT).until(() -> "PUBLISHED".equals(attemptStatus(failure.incidentId())));
        return jdbc.queryForObject("SELECT published_offset FROM replay_attempt WHERE incident_id = ? AND attempt = 1", Long.class,
                failure.incidentId());
    }

    /**
     * The first {@code times} updates that mark the incident's outbox row SENT are refused. Each refusal is counted in a
     * non-transactional table first, so the count stays when the SIGNAL rolls the update back.
     */
    private static void refuseSentMarks(String incidentId, int times) {
        jdbc.execute("CREATE TABLE IF NOT EXISTS it_sent_refusals (incident_id VARCHAR(36) NOT NULL) ENGINE = MyISAM");
        jdbc.execute("CREATE TABLE IF NOT EXISTS it_refuse_sent (incident_id VARCHAR(36) NOT NULL, times INT NOT NULL)");
        jdbc.update("INSERT INTO it_refuse_sent VALUES (?, ?)", incidentId, times);
        jdbc.execute("DROP TRIGGER IF EXISTS it_refuse_sent_mark");
        jdbc.execute("CREATE TRIGGER it_refuse_sent_mark BEFORE UPDATE ON replay_outbox FOR EACH ROW BEGIN "
                + "IF NEW.status = 'SENT' AND OLD.status = 'PENDING' AND (SELECT COUNT(*) FROM it_sent_refusals s "
                + "WHERE s.incident_id = NEW.incident_id) < (SELECT COALESCE(MAX(r.times), 0) FROM it_refuse_sent r "
                + "WHERE r.incident_id = NEW.incident_id) THEN INSERT INTO it_sent_refusals VALUES (NEW.incident_id); "
                + "SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'marking SENT refused after the ack'; END IF; END");
    }

    private static int refusedSentMarks(String incidentId) {
        return jdbc.queryForObject("SELECT COUNT(*) FROM it_sent_refusals WHERE incident_id = ?", Integer.class, incidentId);
    }

    private static void allowSentMarks() {
        jdbc.execute("DROP TRIGGER IF EXISTS it_refuse_sent_mark");
    }

    private static double counter(String name) {
        var counter = app.getBean(io.micrometer.core.instrument.MeterRegistry.class).find(name).counter();
        return counter == null ? 0 : counter.count();
    }

    private static StreamingEventProcessor processor(String group) {
        return app.getBean(EventProcessingConfiguration.class).eventProcessorByProcessingGroup(group, StreamingEventProcessor.class)
                .orElseThrow();
    }

    private static String attemptStatus(String incidentId) {
        return jdbc.query("SELECT status FROM replay_attempt WHERE incident_id = ? AND attempt = 1", (row, number) -> row.getString(1),
                incidentId).stream().findFirst().orElse(null);
    }

    /** What the group's consumer commits after processing records up to {@code offset} - 1 of the orders topic. */
    private static void commit(String group, long offset) {
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(group)) {
            consumer.commitSync(Map.of(new TopicPartition(ORDERS, 0), new OffsetAndMetadata(offset)));
        }
    }

    /** A consumer of the steady topic that commits after every poll, as a service under load does. */
    private static void consumeUntilStopped(String group, AtomicBoolean running) {
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(group)) {
            TopicPartition partition = new TopicPartition(STEADY, 0);
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            while (running.get()) {
                if (!consumer.poll(Duration.ofMillis(50)).isEmpty()) {
                    consumer.commitSync();
                }
            }
        }
    }

    private static KafkaConsumer<byte[], byte[]> consumer(String group) {
        return new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, group, ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 20), new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    private static long endOffset(TopicPartition partition) {
        try (KafkaConsumer<byte[], byte[]> consumer = consumer("end-" + NONCE)) {
            return consumer.endOffsets(List.of(partition)).get(partition);
        }
    }

    private static void awaitReady() {
        await().atMost(WAIT).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            Check check = check();
            assertThat(check.verdict()).as(check.body()).isEqualTo("READY");
            assertThat(check.status()).isEqualTo(200);
        });
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** The endpoint's answer, as the deployer (the CI credential) gets it. */
    static Check check() throws Exception {
        return Check.of(RunningApp.get(app, "/api/v1/rollback-readiness", "deployer", RunningApp.PASSWORD));
    }

    record Check(int status, String body, JsonNode json) {

        static Check of(HttpResponse<String> response) throws Exception {
            return new Check(response.statusCode(), response.body(), JSON.readTree(response.body()));
        }

        String verdict() {
            return json.path("verdict").asText();
        }

        JsonNode condition(String name) {
            for (JsonNode condition : json.path("conditions")) {
                if (name.equals(condition.path("condition").asText())) {
                    return condition;
                }
            }
            throw new AssertionError("no condition " + name + " in " + body);
        }

        /** The conditions not MET, in report order. */
        List<String> unmet() {
            List<String> names = new ArrayList<>();
            json.path("conditions").forEach(condition -> {
                if (!"MET".equals(condition.path("status").asText())) {
                    names.add(condition.path("condition").asText());
                }
            });
            return names;
        }
    }
}

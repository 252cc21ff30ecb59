package io.dlqdesk.app;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.OperatorAction;
import io.dlqdesk.domain.record.EventId;
import io.dlqdesk.domain.record.ExceptionSummary;
import io.dlqdesk.domain.record.FailedRecord;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.domain.record.OriginalTimestamp;
import io.dlqdesk.domain.record.PayloadHash;
import io.dlqdesk.domain.record.RecordKey;
import io.dlqdesk.domain.record.RecordLocation;
import io.dlqdesk.domain.record.TimestampType;
import io.dlqdesk.domain.replay.ReplayHeaders;
import io.dlqdesk.domain.replay.ReplayOutcome;
import io.dlqdesk.domain.replay.ReplayPolicy;
import io.dlqdesk.domain.replay.RequestReplayCommand;
import io.dlqdesk.domain.replay.SourceRecordFacts;
import io.dlqdesk.ingest.classify.Classification;
import io.dlqdesk.ingest.loop.IncidentWriter;
import io.dlqdesk.ingest.loop.QuarantineStore;
import io.dlqdesk.ingest.loop.RecordHandler.Classified;
import io.dlqdesk.ingest.loop.StoredIncidents;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.common.transaction.TransactionManager;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/** Ingest's batch path on the real store: one append for a batch, create-only for new incidents, re-failures, and races on the same ids. */
@RealInfrastructure
class IngestBatchIT {

    private static final String NONCE = "b" + System.nanoTime();
    /** The failures' original timestamp: the same failure dead-lettered again carries the same one. */
    private static final long ORIGINAL = System.currentTimeMillis();
    private static ConfigurableApplicationContext app;

    @BeforeAll
    static void start(TestDatabase database, KafkaBroker broker) {
        app = RunningApp.start(database, broker, Map.of("dlqdesk.events-topic", "it-" + NONCE + "-incident-events",
                "dlqdesk.ingest.topic-pattern", "it-" + NONCE + "-nothing"));
    }

    @AfterAll
    static void stop() {
        app.close();
    }

    @Test
    void aBatchOpensEveryIncidentOnceAndAnIncidentOpenedThatWayAcceptsAReplay() throws Exception {
        String topic = "batch-" + NONCE;
        List<Classified> batch = new ArrayList<>(IntStream.range(0, 20).mapToObj(offset -> failure(topic, offset)).toList());
        batch.add(failure(topic, 3)); // the same DLQ record twice in one batch: one incident, nothing added
        Collections.shuffle(batch);

        app.getBean(IncidentWriter.class).handleAll(batch);
        app.getBean(IncidentWriter.class).handleAll(batch); // read again after a rebalance: nothing new

        assertThat(firstEvents(topic)).hasSize(20).doesNotHaveDuplicates();
        assertThat(eventsOf(topic)).as("no duplicate delivery recorded for the same DLQ record").isEqualTo(20);
        FailedRecord root = ((Classification.Failure) failure(topic, 5).classification()).failure();
        ReplayOutcome outcome = app.getBean(CommandGateway.class).sendAndWait(new RequestReplayCommand(IncidentId.forFailure(root),
                SourceRecordFacts.found(root.failureKey().location(), root.failureKey().offset(), root.key(), root.eventId(), root.valueHash(), root.originalTimestamp()),
                new ReplayPolicy(true, 3), true, "dlq-incident-desk", new OperatorAction("alice", "fixed", Instant.now())));
        assertThat(outcome.attempt()).as(outcome.toString()).isEqualTo(1);
    }

    @Test
    void twoBatchesRacingOnTheSameNewIdsLeaveEachIncidentWithOneFirstEventAndLoseNoRecord() throws Exception {
        String topic = "race-" + NONCE;
        List<Classified> records = IntStream.range(0, 30).mapToObj(offset -> failure(topic, offset)).toList();
        // both writers read "none of these exist" before either commits
        CountDownLatch bothChecked = new CountDownLatch(2);
        StoredIncidents real = app.getBean(StoredIncidents.class);
        StoredIncidents checkThenWait = ids -> {
            var existing = real.existing(ids);
            bothChecked.countDown();
            try {
                bothChecked.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return existing;
        };
        List<CompletableFuture<Boolean>> writers = new ArrayList<>();
        for (int writer = 0; writer < 2; writer++) {
            IncidentWriter incidents = writer(checkThenWait);
            writers.add(CompletableFuture.supplyAsync(() -> {
                try {
                    incidents.handleAll(records);
                    return true;
                } catch (Exception e) {
                    // what the loop does with a failed batch: each record on its own
                    for (Classified record : records) {
                        try {
                            incidents.handle(record.record(), record.classification());
                        } catch (Exception again) {
                            throw new IllegalStateException(again);
                        }
                    }
                    return false;
                }
            }));
        }
        List<Boolean> batchSucceeded = writers.stream().map(CompletableFuture::join).toList();

        assertThat(batchSucceeded).as("the store's unique key refused the second creation").containsExactlyInAnyOrder(true, false);
        assertThat(firstEvents(topic)).hasSize(30).doesNotHaveDuplicates();
        assertThat(eventsOf(topic)).as("the same DLQ records written again add nothing").isEqualTo(30);
    }

    @Test
    void aBatchWhoseIncidentsAlreadyExistRecordsDuplicateDeliveriesFromOtherDlqRecords() throws Exception {
        String topic = "again-" + NONCE;
        List<Classified> first = IntStream.range(0, 5).mapToObj(offset -> failure(topic, offset)).toList();
        app.getBean(IncidentWriter.class).handleAll(first);
        // the same failures, dead-lettered again at other DLQ offsets
        List<Classified> redelivered = IntStream.range(0, 5).mapToObj(offset -> failure(topic, offset, 100 + offset)).toList();

        app.getBean(IncidentWriter.class).handleAll(redelivered);

        assertThat(firstEvents(topic)).hasSize(5);
        assertThat(app.getBean(JdbcTemplate.class).queryForObject("SELECT COUNT(*) FROM domain_event_entry WHERE payload_type LIKE '%.DuplicateDeliveryRecorded'"
                + " AND aggregate_identifier IN (SELECT aggregate_identifier FROM domain_event_entry WHERE sequence_number = 0 AND payload LIKE ?)",
                Integer.class, "%" + topic + "%")).isEqualTo(5);
    }

    /**
     * Re-failures written in a batch end as they do one by one: the one passing the nine checks is a failure of its root,
     * one naming the wrong attempt and one naming an unknown root each open a separate incident that records why, in the
     * same batch as a first failure; the batch read again adds nothing.
     */
    @Test
    void reFailuresInABatchAreCorrelatedOrOpenedSeparatelyAsOnTheirOwn() throws Exception {
        String topic = "refail-" + NONCE;
        IncidentWriter writer = app.getBean(IncidentWriter.class);
        writer.handleAll(List.of(failure(topic, 0), failure(topic, 1)));
        FailedRecord correlatedRoot = replayed(topic, 0);
        FailedRecord wrongAttemptRoot = replayed(topic, 1);
        List<Classified> batch = new ArrayList<>(List.of(
                refailure(correlatedRoot, 40, IncidentId.forFailure(correlatedRoot).value(), "1"),
                refailure(wrongAttemptRoot, 41, IncidentId.forFailure(wrongAttemptRoot).value(), "2"),
                refailure(correlatedRoot, 42, IncidentId.of(new FailureKey(topic, 0, 999, "billing")).value(), "1"),
                failure(topic, 7)));
        Collections.shuffle(batch);

        writer.handleAll(batch);
        writer.handleAll(batch); // read again after a rebalance: nothing new

        JdbcTemplate jdbc = app.getBean(JdbcTemplate.class);
        assertThat(jdbc.queryForList("SELECT aggregate_identifier FROM domain_event_entry WHERE payload_type LIKE '%.RetryFailureCorrelated'"
                + " AND aggregate_identifier IN (?, ?)", String.class, IncidentId.forFailure(correlatedRoot).value(),
                IncidentId.forFailure(wrongAttemptRoot).value())).containsExactly(IncidentId.forFailure(correlatedRoot).value());
        assertThat(separatelyOpened(topic, "ATTEMPT_MISMATCH")).as("the wrong attempt's record").isEqualTo(1);
        assertThat(separatelyOpened(topic, "ROOT_INCIDENT_MISMATCH")).as("the unknown root's record").isEqualTo(1);
        assertThat(firstEvents(topic)).as("two roots, two separate incidents, one first failure").hasSize(5).doesNotHaveDuplicates();
    }

    /** The root's failure, replayed once (attempt 1) to its own partition. */
    private static FailedRecord replayed(String topic, long offset) {
        FailedRecord root = ((Classification.Failure) failure(topic, offset).classification()).failure();
        ReplayOutcome outcome = app.getBean(CommandGateway.class).sendAndWait(new RequestReplayCommand(IncidentId.forFailure(root),
                SourceRecordFacts.found(root.failureKey().location(), root.failureKey().offset(), root.key(), root.eventId(), root.valueHash(), root.originalTimestamp()),
                new ReplayPolicy(true, 3), true, "dlq-incident-desk", new OperatorAction("alice", "fixed", Instant.now())));
        assertThat(outcome.attempt()).as(outcome.toString()).isEqualTo(1);
        return root;
    }

    /** The replayed record failing again: read back at {@code replayedOffset}, dead-lettered with the replay's headers. */
    private static Classified refailure(FailedRecord root, long replayedOffset, String namedRoot, String attempt) {
        FailureKey key = root.failureKey();
        FailedRecord again = new FailedRecord(new FailureKey(key.topic(), key.partition(), replayedOffset, key.consumerGroup()),
                new RecordLocation(key.topic() + ".dlq", 0, 500 + replayedOffset), root.key(), root.eventId(), root.originalTimestamp(),
                root.valueHash(), new ExceptionSummary("com.example.Broken", "broken again"));
        ReplayHeaders headers = new ReplayHeaders(namedRoot, attempt, "dlq-incident-desk", key.consumerGroup());
        return new Classified(new ConsumerRecord<>(key.topic() + ".dlq", 0, 500 + replayedOffset, null, new byte[0]),
                new Classification.RetryFailure(again, headers));
    }

    private static int separatelyOpened(String topic, String mismatch) {
        return app.getBean(JdbcTemplate.class).queryForObject("SELECT COUNT(*) FROM domain_event_entry WHERE sequence_number = 0"
                + " AND payload LIKE ? AND payload LIKE ?", Integer.class, "%\"" + topic + "\"%", "%" + mismatch + "%");
    }

    private static IncidentWriter writer(StoredIncidents storedIncidents) {
        return new IncidentWriter(app.getBean(CommandGateway.class), app.getBean(TransactionManager.class), storedIncidents,
                app.getBean(QuarantineStore.class), Duration.ofDays(7), "dlq-incident-desk", Clock.systemUTC());
    }

    private static List<String> firstEvents(String topic) {
        return app.getBean(JdbcTemplate.class).queryForList("SELECT aggregate_identifier FROM domain_event_entry WHERE sequence_number = 0"
                + " AND payload LIKE ?", String.class, "%\"" + topic + "\"%");
    }

    private static int eventsOf(String topic) {
        return app.getBean(JdbcTemplate.class).queryForObject("SELECT COUNT(*) FROM domain_event_entry WHERE aggregate_identifier IN"
                + " (SELECT aggregate_identifier FROM domain_event_entry WHERE sequence_number = 0 AND payload LIKE ?)", Integer.class,
                "%\"" + topic + "\"%");
    }

    private static Classified failure(String topic, long offset) {
        return failure(topic, offset, offset);
    }

    private static Classified failure(String topic, long offset, long dlqOffset) {
        byte[] value = ("{\"order\":" + offset + "}").getBytes(StandardCharsets.UTF_8);
        FailedRecord failure = new FailedRecord(new FailureKey(topic, 0, offset, "billing"), new RecordLocation(topic + ".dlq", 0, dlqOffset),
                RecordKey.of(("k" + offset).getBytes(StandardCharsets.UTF_8)), new EventId("evt-" + topic + "-" + offset),
                OriginalTimestamp.ofEpochMilli(ORIGINAL, TimestampType.CREATE_TIME), PayloadHash.of(value),
                new ExceptionSummary("com.example.Broken", "broken " + offset));
        return new Classified(new ConsumerRecord<>(topic + ".dlq", 0, dlqOffset, null, value), new Classification.Failure(failure));
    }
}

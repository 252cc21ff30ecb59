package io.dlqdesk.app;

import io.dlqdesk.domain.api.JobReplayClaimed;
import io.dlqdesk.domain.api.JobReplayDecided;
import io.dlqdesk.domain.api.JobReplayRefailed;
import io.dlqdesk.domain.api.JobReplayRefused;
import io.dlqdesk.domain.api.JobReplayRequested;
import io.dlqdesk.domain.api.PublishMarkedUnknown;
import io.dlqdesk.domain.api.PublishResultRecorded;
import io.dlqdesk.domain.api.ReplayJobCancelled;
import io.dlqdesk.domain.api.ReplayJobCreated;
import io.dlqdesk.domain.api.ReplayJobPaused;
import io.dlqdesk.domain.api.ReplayJobResumed;
import io.dlqdesk.domain.api.ReplayEditApproved;
import io.dlqdesk.domain.api.ReplayEditProposed;
import io.dlqdesk.domain.api.ReplayRequested;
import io.dlqdesk.domain.edit.EditDiff;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.OperatorAction;
import io.dlqdesk.domain.job.ReplayJobId;
import io.dlqdesk.domain.job.ReplayJobLimits;
import io.dlqdesk.domain.job.ReplayJobPauseReason;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.domain.record.RecordKey;
import io.dlqdesk.domain.record.RecordLocation;
import io.dlqdesk.domain.replay.PublishResult;
import io.dlqdesk.domain.replay.PublishStatus;
import io.dlqdesk.domain.replay.ReplayRefusal;
import io.dlqdesk.projections.asof.IncidentStatusIntervalProjection;
import io.dlqdesk.projections.history.IncidentHistoryProjection;
import io.dlqdesk.projections.incident.IncidentSummaryProjection;
import io.dlqdesk.projections.job.ReplayJobProjection;
import io.dlqdesk.projections.readiness.ReplayAttemptProjection;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import java.time.Instant;
import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.AnnotationEventHandlerAdapter;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.axonframework.eventhandling.StreamingEventProcessor;
import org.axonframework.messaging.MetaData;
import org.axonframework.messaging.ResultMessage;
import org.axonframework.messaging.unitofwork.BatchingUnitOfWork;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The read models write per batch of events: whatever the batch size (one, seven, a thousand, or no unit of work at
 * all), and with batches rolled back after their writes and run again, the same events give the same tables. The
 * projections' own processors are stopped; the test hands them batches as a pooled processor does (one
 * {@link BatchingUnitOfWork} and one transaction per batch).
 */
@RealInfrastructure
class ProjectionBatchingIT {

    private static final String NONCE = "b" + System.nanoTime();
    private static final List<String> GROUPS = List.of(IncidentSummaryProjection.PROCESSING_GROUP, IncidentHistoryProjection.PROCESSING_GROUP,
            ReplayAttemptProjection.PROCESSING_GROUP, IncidentStatusIntervalProjection.PROCESSING_GROUP, ReplayJobProjection.PROCESSING_GROUP);
    /** Rows of incident_count that net to zero exist or not depending on where batches end: only the others are compared. */
    private static final Map<String, String> TABLES = tables();
    /** When the rollback-facts tests' attempts are requested; their decisions come a second or two later. */
    private static final Instant REQUESTED_AT = Instant.parse("2026-03-01T10:00:00Z");

    private static ConfigurableApplicationContext app;
    private static List<AnnotationEventHandlerAdapter> projections;
    private static TransactionManager transactions;

    @BeforeAll
    static void start(TestDatabase database, KafkaBroker broker) {
        // the driver rewrites JDBC batches into multi-row statements (and reports no update counts) as the service runs it
        app = RunningApp.start(database, broker, Map.of("dlqdesk.events-topic", "it-" + NONCE + "-incident-events",
                "dlqdesk.ingest.topic-pattern", "it-" + NONCE + "-nothing",
                "spring.datasource.hikari.data-source-properties.rewriteBatchedStatements", "true",
                "spring.datasource.hikari.data-source-properties.cachePrepStmts", "true"));
        EventProcessingConfiguration processing = app.getBean(EventProcessingConfiguration.class);
        for (String group : GROUPS) {
            processing.eventProcessorByProcessingGroup(group, StreamingEventProcessor.class).orElseThrow().shutDown();
        }
        projections = List.of(new AnnotationEventHandlerAdapter(app.getBean(IncidentSummaryProjection.class)),
                new AnnotationEventHandlerAdapter(app.getBean(IncidentHistoryProjection.class)),
                new AnnotationEventHandlerAdapter(app.getBean(ReplayAttemptProjection.class)),
                new AnnotationEventHandlerAdapter(app.getBean(IncidentStatusIntervalProjection.class)),
                new AnnotationEventHandlerAdapter(app.getBean(ReplayJobProjection.class)));
        transactions = app.getBean(TransactionManager.class);
    }

    @AfterAll
    static void stop() {
        app.close();
    }

    @Test
    void theSameEventsGiveTheSameTablesWhateverTheBatchSize() {
        List<DomainEventMessage<?>> events = new ArrayList<>(IncidentStory.told(20260301L, 80, 900));
        events.addAll(jobStory(events));
        List<DomainEventMessage<?>> edits = editStory(events);
        events.addAll(edits);

        Map<String, List<Map<String, Object>>> oneByOne = rebuild(events, 1, false);
        assertThat(oneByOne.get("incident_summary")).hasSize(80);
        // an incident's duplicate deliveries are one row
        long duplicates = events.stream().filter(event -> event.getPayload() instanceof io.dlqdesk.domain.api.DuplicateDeliveryRecorded).count();
        long withDuplicates = events.stream().filter(event -> event.getPayload() instanceof io.dlqdesk.domain.api.DuplicateDeliveryRecorded)
                .map(DomainEventMessage::getAggregateIdentifier).distinct().count();
        assertThat(duplicates).as("the story has incidents delivered more than twice").isGreaterThan(withDuplicates);
        assertThat(oneByOne.get("incident_history")).as("every incident event but the repeated duplicates, and the jobs' operator events")
                .hasSize((int) (events.stream().filter(event -> event.getType().equals("Incident")).count() - duplicates + withDuplicates) + 6);
        assertThat(oneByOne.get("replay_attempt")).isNotEmpty();
        assertThat(oneByOne.get("replay_job")).hasSize(2);
        assertThat(oneByOne.get("replay_edit")).as("three edits, two approved").hasSize(3)
                .filteredOn(row -> row.get("approved_by") != null).hasSize(2);
        assertThat(oneByOne.get("replay_job_refusal")).isNotEmpty();
        assertThat(oneByOne.get("replay_job_active")).as("the paused job; the cancelled one left").hasSize(1);
        assertCountsAreTheSummaryGrouped();

        assertThat(rebuild(events, 7, false)).isEqualTo(oneByOne);
        assertCountsAreTheSummaryGrouped();
        assertThat(rebuild(events, 1000, false)).isEqualTo(oneByOne);
        assertCountsAreTheSummaryGrouped();
        assertThat(rebuild(events, 0, false)).as("outside any unit of work").isEqualTo(oneByOne);
        List<DomainEventMessage<?>> editsAgain = new ArrayList<>(events);
        editsAgain.addAll(edits);
        assertThat(rebuild(editsAgain, 7, false)).as("an edit's events handled again add nothing").isEqualTo(oneByOne);
        assertThat(rebuild(events, 13, true)).as("every batch rolled back once after its writes, then run again").isEqualTo(oneByOne);
        assertCountsAreTheSummaryGrouped();
        // events handled again after their batch committed: the history keeps its promise that a replayed event adds nothing,
        // also where a batch holds duplicate deliveries it counted already and new ones (the counters of the other read
        // models rely on their token committing with their writes, so they are not asked this)
        assertThat(rebuild(events, 13, false, 6).get("incident_history")).as("each batch handling the previous one's last 6 events again")
                .isEqualTo(oneByOne.get("incident_history"));
    }

    @Test
    void aDecisionIsWrittenToItsAttemptWhicheverBatchRequestedIt() {
        AnnotationEventHandlerAdapter facts = rollbackFacts();
        FailureKey earlier = new FailureKey("orders", 1, 7, "billing");
        FailureKey same = new FailureKey("orders", 2, 8, "billing");
        List<EventMessage<?>> requests = List.of(requested(earlier));
        List<EventMessage<?>> decisions = List.of(requested(same),
                event(same, 1, new PublishResultRecorded(incident(same), 1, same,
                        PublishResult.published(new RecordLocation("orders", 2, 41), REQUESTED_AT.plusSeconds(1)))),
                event(earlier, 1, new PublishMarkedUnknown(incident(earlier), 1, earlier, new OperatorAction("carol", "gone", REQUESTED_AT), 17L),
                        REQUESTED_AT.plusSeconds(2)));

        assertThat(process(facts, requests, false).isExceptional()).isFalse();
        ResultMessage<?> result = process(facts, decisions, false);

        assertThat(result.isExceptional()).as(() -> String.valueOf(result.exceptionResult())).isFalse();
        assertThat(attempts()).containsExactly(
                List.of(incident(earlier).value(), "PUBLISH_UNKNOWN", "2026-03-01T10:00:02", "null", "17"),
                List.of(incident(same).value(), "PUBLISHED", "2026-03-01T10:00:01", "41", "null"));
    }

    @Test
    void aDecisionWithNoStoredAttemptFailsItsBatchAndWritesNoneOfIt() {
        AnnotationEventHandlerAdapter facts = rollbackFacts();
        FailureKey requestedKey = new FailureKey("orders", 1, 9, "billing");
        FailureKey lost = new FailureKey("orders", 1, 10, "billing");
        List<EventMessage<?>> batch = List.of(requested(requestedKey),
                event(lost, 1, new PublishResultRecorded(incident(lost), 1, lost, PublishResult.failed("broker said no", REQUESTED_AT))));

        ResultMessage<?> result = process(facts, batch, false);

        assertThat(result.isExceptional()).as("the rollback check fails closed while the facts stand still").isTrue();
        assertThat(result.exceptionResult()).hasMessageContaining(incident(lost).value());
        assertThat(attempts()).as("the request in the same batch is rolled back with it").isEmpty();
    }

    /** The rollback facts' projection, its tables emptied as its processor's reset does. */
    private static AnnotationEventHandlerAdapter rollbackFacts() {
        AnnotationEventHandlerAdapter facts = projections.get(GROUPS.indexOf(ReplayAttemptProjection.PROCESSING_GROUP));
        transactions.executeInTransaction(facts::prepareReset);
        return facts;
    }

    private static List<List<String>> attempts() {
        return jdbc().query("SELECT incident_id, status, decided_at, published_offset, end_offset_at_decision FROM replay_attempt"
                        + " ORDER BY incident_id, attempt",
                (row, n) -> List.of(row.getString(1), row.getString(2), String.valueOf(row.getObject(3, java.time.LocalDateTime.class)),
                        String.valueOf(row.getObject(4)), String.valueOf(row.getObject(5))));
    }

    private static IncidentId incident(FailureKey key) {
        return new IncidentId("inc-%032x".formatted(key.offset()));
    }

    private static EventMessage<?> requested(FailureKey key) {
        return event(key, 0, new ReplayRequested(incident(key), 1, key, key.location(), key.consumerGroup(), RecordKey.NONE, null, null, null,
                null, "dlq-incident-desk", new OperatorAction("alice", "fix deployed", REQUESTED_AT)));
    }

    private static EventMessage<?> event(FailureKey key, long seq, Object payload) {
        return event(key, seq, payload, REQUESTED_AT);
    }

    private static EventMessage<?> event(FailureKey key, long seq, Object payload, Instant at) {
        return new GenericDomainEventMessage<>("Incident", incident(key).value(), seq, payload, MetaData.emptyInstance(),
                "msg-" + NONCE + "-" + key.offset() + "-" + seq, at);
    }

    /** Resets the four read models as their processors do, then hands them the events in batches of {@code size} (0: no unit of work). */
    private static Map<String, List<Map<String, Object>>> rebuild(List<DomainEventMessage<?>> events, int size, boolean rollBackFirst) {
        return rebuild(events, size, rollBackFirst, 0);
    }

    /** @param again how many of the previous batch's last events each batch handles again */
    private static Map<String, List<Map<String, Object>>> rebuild(List<DomainEventMessage<?>> events, int size, boolean rollBackFirst,
                                                                int again) {
        transactions.executeInTransaction(() -> projections.forEach(AnnotationEventHandlerAdapter::prepareReset));
        for (AnnotationEventHandlerAdapter projection : projections) {
            if (size == 0) {
                events.forEach(event -> handle(projection, event));
                continue;
            }
            for (int from = 0; from < events.size(); from += size) {
                List<EventMessage<?>> batch = new ArrayList<>(events.subList(Math.max(0, from - again), Math.min(events.size(), from + size)));
                if (rollBackFirst) {
                    ResultMessage<?> failed = process(projection, batch, true);
                    assertThat(failed.isExceptional()).isTrue();
                }
                ResultMessage<?> result = process(projection, batch, false);
                assertThat(result.isExceptional()).as(() -> String.valueOf(result.exceptionResult())).isFalse();
            }
        }
        Map<String, List<Map<String, Object>>> dump = new LinkedHashMap<>();
        TABLES.forEach((table, query) -> dump.put(table, jdbc().queryForList(query)));
        return dump;
    }

    /** As a pooled processor's work package: one unit of work and one transaction for the batch. */
    private static ResultMessage<?> process(AnnotationEventHandlerAdapter projection, List<EventMessage<?>> batch, boolean failAtCommit) {
        BatchingUnitOfWork<EventMessage<?>> unitOfWork = new BatchingUnitOfWork<>(batch);
        unitOfWork.attachTransaction(transactions);
        return unitOfWork.executeWithResult(() -> {
            handle(projection, unitOfWork.getMessage());
            if (failAtCommit && unitOfWork.isLastMessage()) {
                // registered after the projection's own prepare-commit work, so its writes are rolled back with the batch
                unitOfWork.onPrepareCommit(u -> {
                    throw new IllegalStateException("token claim lost (on purpose)");
                });
            }
            return null;
        });
    }

    private static void handle(AnnotationEventHandlerAdapter projection, EventMessage<?> event) {
        try {
            if (projection.canHandle(event)) {
                projection.handle(event);
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Two replay jobs over the story's first incidents: one with answers, refusals, results and a re-failure, paused by its
     * canary and resumed, then cancelled; one paused by an operator.
     */
    private static List<DomainEventMessage<?>> jobStory(List<DomainEventMessage<?>> story) {
        List<IncidentId> incidents = story.stream().map(DomainEventMessage::getAggregateIdentifier).distinct().limit(12)
                .map(IncidentId::new).toList();
        Instant at = story.get(story.size() - 1).getTimestamp().plusSeconds(1);
        OperatorAction alice = new OperatorAction("alice", "fix deployed", at);
        List<DomainEventMessage<?>> events = new ArrayList<>();
        ReplayJobId first = new ReplayJobId("job-batching-1");
        List<Object> firstJob = new ArrayList<>(List.of(new ReplayJobCreated(first, "filter topic=orders", incidents,
                new ReplayJobLimits(10, 50, 6, 0.5), alice)));
        for (int i = 0; i < incidents.size(); i++) {
            firstJob.add(new JobReplayClaimed(first, incidents.get(i), at));
            firstJob.add(i % 3 == 0 ? new JobReplayRefused(first, incidents.get(i), List.of(ReplayRefusal.INCIDENT_CLOSED, ReplayRefusal.AFTER_DEADLINE))
                    : new JobReplayRequested(first, incidents.get(i), 1));
            if (i % 3 == 1) {
                firstJob.add(new JobReplayDecided(first, incidents.get(i), 1, i % 2 == 0 ? PublishStatus.PUBLISH_FAILED : PublishStatus.PUBLISHED));
            }
            if (i == 4) {
                firstJob.add(new JobReplayRefailed(first, incidents.get(i), 1));
            }
            if (i == 5) {
                firstJob.add(new ReplayJobPaused(first, ReplayJobPauseReason.CANARY, new OperatorAction("replay-job", "canary", at)));
                firstJob.add(new ReplayJobResumed(first, alice));
            }
            if (i == 8) {
                firstJob.add(new ReplayJobCancelled(first, alice));
            }
        }
        ReplayJobId second = new ReplayJobId("job-batching-2");
        List<Object> secondJob = List.of(new ReplayJobCreated(second, "explicit list of 2 incident id(s)", incidents.subList(0, 2),
                ReplayJobLimits.defaults(), alice), new ReplayJobPaused(second, ReplayJobPauseReason.OPERATOR, alice));
        for (List<Object> job : List.of(firstJob, secondJob)) {
            String id = ((ReplayJobCreated) job.get(0)).jobId().value();
            for (int seq = 0; seq < job.size(); seq++) {
                events.add(new GenericDomainEventMessage<>("ReplayJob", id, seq, job.get(seq), MetaData.emptyInstance(),
                        "msg-" + id + "-" + seq, at.plusMillis(seq)));
            }
        }
        return events;
    }

    /** Edits of the story's first three incidents, each after its last event: all proposed, the first two approved. */
    private static List<DomainEventMessage<?>> editStory(List<DomainEventMessage<?>> story) {
        List<DomainEventMessage<?>> events = new ArrayList<>();
        List<String> incidents = story.stream().filter(event -> event.getType().equals("Incident")).map(DomainEventMessage::getAggregateIdentifier)
                .distinct().limit(3).toList();
        Instant at = story.get(story.size() - 1).getTimestamp().plusSeconds(5);
        for (int i = 0; i < incidents.size(); i++) {
            String id = incidents.get(i);
            long seq = story.stream().filter(event -> event.getAggregateIdentifier().equals(id)).mapToLong(DomainEventMessage::getSequenceNumber)
                    .max().orElseThrow();
            List<Object> edit = new ArrayList<>(List.of(new ReplayEditProposed(new IncidentId(id), 1,
                    io.dlqdesk.domain.record.PayloadHash.of(new byte[] {(byte) i}), io.dlqdesk.domain.record.PayloadHash.of(new byte[] {(byte) i, 1}),
                    1, new EditDiff(EditDiff.Kind.JSON, List.of(new EditDiff.Change("/qty", "0", Integer.toString(i))), List.of()),
                    new OperatorAction("eddie", "qty " + i, at))));
            if (i < 2) {
                edit.add(new ReplayEditApproved(new IncidentId(id), 1, new OperatorAction("bob", "checked", at)));
            }
            for (Object payload : edit) {
                seq++;
                events.add(new GenericDomainEventMessage<>("Incident", id, seq, payload, MetaData.emptyInstance(), "msg-" + id + "-" + seq,
                        at.plusMillis(seq)));
            }
        }
        return events;
    }

    /** The counts table is the summary table grouped by each dimension (and the gauges' topic and group) and status. */
    private static void assertCountsAreTheSummaryGrouped() {
        List<Map<String, Object>> grouped = jdbc().queryForList("SELECT dimension, value, status, incidents FROM ("
                + " SELECT 'TOPIC' AS dimension, topic AS value, status, COUNT(*) AS incidents FROM incident_summary GROUP BY topic, status"
                + " UNION ALL SELECT 'CONSUMER_GROUP', consumer_group, status, COUNT(*) FROM incident_summary GROUP BY consumer_group, status"
                + " UNION ALL SELECT 'STATUS', status, status, COUNT(*) FROM incident_summary GROUP BY status"
                + " UNION ALL SELECT 'EXCEPTION_GROUP', exception_group, status, COUNT(*) FROM incident_summary GROUP BY exception_group, status"
                + " UNION ALL SELECT 'LOCATION', CONCAT(topic, CHAR(10), consumer_group), status, COUNT(*) FROM incident_summary"
                + " GROUP BY topic, consumer_group, status"
                + ") g ORDER BY dimension, value, status");
        assertThat(jdbc().queryForList("SELECT dimension, value, status, incidents FROM incident_count WHERE incidents <> 0"
                + " ORDER BY dimension, value, status")).isEqualTo(grouped);
        assertThat(jdbc().queryForList("SELECT exception_group FROM exception_group ORDER BY exception_group"))
                .isEqualTo(jdbc().queryForList("SELECT DISTINCT exception_group FROM incident_summary ORDER BY exception_group"));
    }

    private static JdbcTemplate jdbc() {
        return app.getBean(JdbcTemplate.class);
    }

    private static Map<String, String> tables() {
        Map<String, String> tables = new LinkedHashMap<>();
        tables.put("incident_summary", "SELECT * FROM incident_summary ORDER BY incident_id");
        tables.put("incident_count", "SELECT * FROM incident_count WHERE incidents <> 0 ORDER BY dimension, value, status");
        tables.put("exception_group", "SELECT * FROM exception_group ORDER BY exception_group");
        tables.put("incident_history", "SELECT * FROM incident_history ORDER BY incident_id, seq");
        tables.put("replay_attempt", "SELECT * FROM replay_attempt ORDER BY incident_id, attempt");
        tables.put("incident_status_interval", "SELECT * FROM incident_status_interval ORDER BY incident_id, seq");
        tables.put("replay_job", "SELECT * FROM replay_job ORDER BY job_id");
        tables.put("replay_job_refusal", "SELECT * FROM replay_job_refusal ORDER BY job_id, refusal");
        tables.put("replay_job_active", "SELECT * FROM replay_job_active ORDER BY job_id");
        tables.put("replay_edit", "SELECT * FROM replay_edit ORDER BY incident_id, edit");
        return tables;
    }
}

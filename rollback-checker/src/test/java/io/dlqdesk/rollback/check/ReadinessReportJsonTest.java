package io.dlqdesk.rollback.check;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.dlqdesk.projections.readiness.RollbackFacts;
import io.dlqdesk.projections.readiness.RollbackFacts.MaybePublishedPosition;
import io.dlqdesk.projections.readiness.RollbackFacts.PublishedPosition;
import io.dlqdesk.rollback.IngestSubscription;
import io.dlqdesk.rollback.RollbackProperties;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.springframework.http.converter.json.Jackson2ObjectMapperBuilder;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The report's JSON is what deploy pipelines parse: every observed field, its name, its order and its "none", pinned
 * for the endpoint's mapper (Spring Boot's defaults) and the command line's.
 */
class ReadinessReportJsonTest {

    private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");
    private static final RollbackProperties SETTINGS = new RollbackProperties(Duration.ofSeconds(7), Duration.ofSeconds(60), Duration.ofSeconds(30), Duration.ofSeconds(10), Duration.ZERO, Duration.ofSeconds(5), false);
    /** As Spring Boot configures the endpoint's ObjectMapper (JacksonAutoConfiguration's feature defaults). */
    private static final ObjectMapper ENDPOINT = Jackson2ObjectMapperBuilder.json()
            .featuresToDisable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS, SerializationFeature.WRITE_DURATIONS_AS_TIMESTAMPS).build();
    /** As RollbackCheckCommand writes the report, without the indentation. */
    private static final ObjectMapper COMMAND = new ObjectMapper().registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);

    private final FakeLedger ledger = new FakeLedger();
    private final FakeBroker broker = new FakeBroker();

    @Test
    void everyObservedValueOfANotReadyReport() throws Exception {
        TopicPartition dlq1 = new TopicPartition("orders.dlq", 1);
        ledger.pending = 1;
        ledger.head = 120;
        ledger.position = OptionalLong.empty();
        ledger.facts = new RollbackFacts(2, NOW.minusSeconds(30),
                List.of(new PublishedPosition("billing", "orders", 0, 41), new PublishedPosition("shipping", "orders", 1, 7)),
                List.of(new MaybePublishedPosition("billing", "orders", 0, 2, 50L, 0), new MaybePublishedPosition("shipping", "orders", 1, 1, 9L, 1)),
                3, List.of(new RollbackFacts.ActiveJob("job-7", "PAUSED")));
        broker.ends.put(FakeBroker.DLQ_0, 10L);
        broker.ends.put(dlq1, 5L);
        broker.committed.put("billing", Map.of(new TopicPartition("orders", 0), 41L));
        broker.committed.put("ingest", Map.of(FakeBroker.DLQ_0, 9L));
        broker.visible = true;

        assertJson(check(), """
                {"verdict":"NOT_READY","checkedAt":"2026-11-30T12:00:00Z","observations":1,"conditions":[\
                {"condition":"NO_PENDING_REPLAY","status":"NOT_MET","explanation":"1 replay(s) wait in the outbox to be published",\
                "observed":{"pendingOutboxRows":1}},\
                {"condition":"NO_ATTEMPT_REQUESTED","status":"NOT_MET","explanation":"the replay read model has not reached the event \
                store's head within PT0S: attempts it has not seen may be in flight",\
                "observed":{"requestedAttempts":2,"eventStoreHead":120,"readModelPosition":"none"}},\
                {"condition":"REPLAYS_CONSUMED","status":"NOT_MET","explanation":"2 replayed record(s) not yet consumed by their target group; \
                2 partition(s) where a PUBLISH_FAILED or PUBLISH_UNKNOWN attempt may have landed and the target group has not read up to \
                the end offset recorded at the decision (or none was recorded); 2 DLQ partition(s) not yet read up to the high-water mark by ingest",\
                "observed":{"replaysChecked":2,"replaysNotConsumed":[\
                {"targetGroup":"billing","topic":"orders","partition":0,"replayedOffset":41,"committedOffset":41},\
                {"targetGroup":"shipping","topic":"orders","partition":1,"replayedOffset":7,"committedOffset":"none"}],\
                "maybePublishedChecked":2,"maybePublishedNotConsumed":[\
                {"targetGroup":"billing","topic":"orders","partition":0,"attempts":2,"endOffsetAtDecision":50,"committedOffset":41},\
                {"targetGroup":"shipping","topic":"orders","partition":1,"attempts":1,\
                "endOffsetAtDecision":"not recorded for 1 of the attempts (fails closed until an admin waives them)","committedOffset":"none"}],\
                "waivedAttempts":3,"recentWaivers":[],"ingestGroup":"ingest","dlqPartitionsChecked":2,"dlqPartitionsBehind":[\
                {"topic":"orders.dlq","partition":0,"highWatermark":10,"committedOffset":9},\
                {"topic":"orders.dlq","partition":1,"highWatermark":5,"committedOffset":"none"}]}},\
                {"condition":"RETRY_BOUND_PASSED","status":"NOT_MET","explanation":"a consumer may still re-fail the last replay until \
                2026-11-30T12:01:10Z","observed":{"lastDecisionAt":"2026-11-30T11:59:30Z","retryBound":"PT1M40S","now":"2026-11-30T12:00:00Z",\
                "clearAt":"2026-11-30T12:01:10Z"}},\
                {"condition":"NO_REPLAY_JOB_ACTIVE","status":"NOT_MET","explanation":"1 replay job(s) RUNNING, PAUSED or AWAITING_APPROVAL may still request replays",\
                "observed":{"activeJobs":[{"jobId":"job-7","status":"PAUSED"}]}},\
                {"condition":"ROLLBACK_FACTS_COMPLETE","status":"MET","explanation":"the rollback-facts processor has no parked event",\
                "observed":{"parkedEvents":0}}]}""");
    }

    @Test
    void everyObservedValueOfAReadyReport() throws Exception {
        ledger.facts = new RollbackFacts(0, NOW.minus(Duration.ofHours(1)), List.of(new PublishedPosition("billing", "orders", 0, 41)),
                List.of(new MaybePublishedPosition("billing", "orders", 0, 1, 42L, 0)), 0);
        broker.committed.put("billing", Map.of(new TopicPartition("orders", 0), 42L));

        assertJson(check(), """
                {"verdict":"READY","checkedAt":"2026-11-30T12:00:00Z","observations":2,"conditions":[\
                {"condition":"NO_PENDING_REPLAY","status":"MET","explanation":"no replay waits in the outbox","observed":{"pendingOutboxRows":0}},\
                {"condition":"NO_ATTEMPT_REQUESTED","status":"MET","explanation":"no attempt waits for its publish result",\
                "observed":{"requestedAttempts":0,"eventStoreHead":10,"readModelPosition":10}},\
                {"condition":"REPLAYS_CONSUMED","status":"MET","explanation":"every replay published was consumed by its \
                target group (or waived by an admin), every target group read past the end offsets recorded when attempts that may have gone out were decided, \
                and ingest has read the DLQ topics up to their high-water marks",\
                "observed":{"replaysChecked":1,"replaysNotConsumed":[],"maybePublishedChecked":1,\
                "maybePublishedNotConsumed":[],"waivedAttempts":0,"recentWaivers":[],"ingestGroup":"ingest","dlqPartitionsChecked":1,\
                "dlqPartitionsBehind":[]}},\
                {"condition":"RETRY_BOUND_PASSED","status":"MET","explanation":"the retry bound after the last publish decision has passed",\
                "observed":{"lastDecisionAt":"2026-11-30T11:00:00Z","retryBound":"PT1M40S","now":"2026-11-30T12:00:00Z",\
                "clearAt":"2026-11-30T11:01:40Z"}},\
                {"condition":"NO_REPLAY_JOB_ACTIVE","status":"MET","explanation":"no replay job has work left","observed":{"activeJobs":[]}},\
                {"condition":"ROLLBACK_FACTS_COMPLETE","status":"MET","explanation":"the rollback-facts processor has no parked event",\
                "observed":{"parkedEvents":0}}]}""");
    }

    @Test
    void withoutAnyDecisionTheRetryBoundShowsNoneAndNoClearingTime() throws Exception {
        String json = ENDPOINT.writeValueAsString(check().conditions().get(3));

        assertThat(json).isEqualTo("""
                {"condition":"RETRY_BOUND_PASSED","status":"MET","explanation":"no replay was ever decided",\
                "observed":{"lastDecisionAt":"none","retryBound":"PT1M40S","now":"2026-11-30T12:00:00Z"}}""");
    }

    @Test
    void anUnknownConditionObservedNothing() throws Exception {
        ledger.failing = true;

        ReadinessReport unknown = check();
        String reference = unknown.conditions().get(0).explanation().replaceAll(".*\\(error ([0-9a-f]{8});.*", "$1");
        assertJson(unknown, """
                {"verdict":"UNKNOWN","checkedAt":"2026-11-30T12:00:00Z","observations":1,"conditions":[\
                {"condition":"NO_PENDING_REPLAY","status":"UNKNOWN","explanation":"%1$s","observed":{}},\
                {"condition":"NO_ATTEMPT_REQUESTED","status":"UNKNOWN","explanation":"%1$s","observed":{}},\
                {"condition":"REPLAYS_CONSUMED","status":"UNKNOWN","explanation":"%1$s","observed":{}},\
                {"condition":"RETRY_BOUND_PASSED","status":"UNKNOWN","explanation":"%1$s","observed":{}},\
                {"condition":"NO_REPLAY_JOB_ACTIVE","status":"UNKNOWN","explanation":"%1$s","observed":{}},\
                {"condition":"ROLLBACK_FACTS_COMPLETE","status":"UNKNOWN","explanation":"%1$s","observed":{}}]}"""
                .formatted("database could not be read (error " + reference + "; the cause is in the service log)"));
    }

    @Test
    void aCheckThatCouldNotStartObservedNothing() throws Exception {
        assertJson(ReadinessReport.couldNotCheck(NOW, "no"), """
                {"verdict":"UNKNOWN","checkedAt":"2026-11-30T12:00:00Z","observations":0,"conditions":[\
                {"condition":"NO_PENDING_REPLAY","status":"UNKNOWN","explanation":"no","observed":{}},\
                {"condition":"NO_ATTEMPT_REQUESTED","status":"UNKNOWN","explanation":"no","observed":{}},\
                {"condition":"REPLAYS_CONSUMED","status":"UNKNOWN","explanation":"no","observed":{}},\
                {"condition":"RETRY_BOUND_PASSED","status":"UNKNOWN","explanation":"no","observed":{}},\
                {"condition":"NO_REPLAY_JOB_ACTIVE","status":"UNKNOWN","explanation":"no","observed":{}},\
                {"condition":"ROLLBACK_FACTS_COMPLETE","status":"UNKNOWN","explanation":"no","observed":{}}]}""");
    }

    private ReadinessReport check() {
        try (BoundedReads reads = new BoundedReads()) {
            return new RollbackChecker(ledger, () -> broker, reads, SETTINGS, IngestSubscription.of("ingest", ".*\\.dlq"),
                    Clock.fixed(NOW, ZoneOffset.UTC), duration -> { }).check();
        }
    }

    private static void assertJson(ReadinessReport report, String expected) throws Exception {
        assertThat(ENDPOINT.writeValueAsString(report)).as("the endpoint's JSON").isEqualTo(expected);
        assertThat(COMMAND.writeValueAsString(report)).as("the command line's JSON").isEqualTo(expected);
    }
}

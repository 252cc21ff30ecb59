package io.dlqdesk.rollback.check;

import io.dlqdesk.projections.readiness.RollbackFacts;
import io.dlqdesk.projections.readiness.RollbackFacts.MaybePublishedPosition;
import io.dlqdesk.projections.readiness.RollbackFacts.PublishedPosition;
import io.dlqdesk.rollback.IngestSubscription;
import io.dlqdesk.rollback.RollbackProperties;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.Supplier;

import static io.dlqdesk.rollback.check.ConditionResult.Status.MET;
import static io.dlqdesk.rollback.check.ConditionResult.Status.NOT_MET;
import static io.dlqdesk.rollback.check.ConditionResult.Status.UNKNOWN;
import static org.assertj.core.api.Assertions.assertThat;

/** The verdict rules over stand-in sources; the real database and brokers are in the app's RollbackReadinessIT. */
class RollbackCheckerTest {

    private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");
    private static final Duration INTERVAL = Duration.ofSeconds(7);
    private static final RollbackProperties SETTINGS = new RollbackProperties(INTERVAL, Duration.ofSeconds(60),
            Duration.ofSeconds(30), Duration.ofSeconds(10), Duration.ZERO, Duration.ofSeconds(5), false);
    private static final Duration BOUND = Duration.ofSeconds(100);
    private static final TopicPartition ORDERS_0 = new TopicPartition("orders", 0);
    private static final TopicPartition DLQ_0 = FakeBroker.DLQ_0;
    private static final IngestSubscription INGEST = IngestSubscription.of("ingest", ".*\\.dlq");

    private final FakeLedger ledger = new FakeLedger();
    private final FakeBroker broker = new FakeBroker();
    private final List<Duration> slept = new ArrayList<>();
    private final BoundedReads reads = new BoundedReads();
    private Supplier<BrokerOffsets> brokers = () -> broker;

    @AfterEach
    void closeReads() {
        reads.close();
    }

    private ReadinessReport check() {
        return check(SETTINGS);
    }

    private ReadinessReport check(RollbackProperties settings) {
        return new RollbackChecker(ledger, brokers, reads, settings, INGEST, Clock.fixed(NOW, ZoneOffset.UTC), slept::add).check();
    }

    @Test
    void nothingInFlightIsReadyAfterTwoObservationsAnIntervalApart() {
        ReadinessReport report = check();

        assertThat(report.verdict()).isEqualTo(Verdict.READY);
        assertThat(report.observations()).isEqualTo(2);
        assertThat(slept).containsExactly(INTERVAL);
        assertThat(report.conditions()).extracting(ConditionResult::condition).containsExactly(Condition.values());
        assertThat(report.conditions()).allSatisfy(result -> assertThat(result.status()).isEqualTo(MET));
    }

    @Test
    void aPendingOutboxRowIsNotReadyAtTheFirstObservation() {
        ledger.pending = 1;

        ReadinessReport report = check();

        assertThat(report.verdict()).isEqualTo(Verdict.NOT_READY);
        assertThat(report.observations()).isEqualTo(1);
        assertThat(slept).isEmpty();
        assertThat(statusOf(report, Condition.NO_PENDING_REPLAY)).isEqualTo(NOT_MET);
        assertThat(observed(report, Condition.NO_PENDING_REPLAY, NoPendingReplay.Observed.class).pendingOutboxRows()).isEqualTo(1);
        assertThat(report.conditions()).filteredOn(result -> result.status() != MET).hasSize(1);
    }

    @Test
    void aParkedRollbackFactIsUnknownNamingTheCondition() {
        ledger.parked = 1;

        ReadinessReport report = check();

        assertThat(report.verdict()).isEqualTo(Verdict.UNKNOWN);
        assertThat(statusOf(report, Condition.ROLLBACK_FACTS_COMPLETE)).isEqualTo(UNKNOWN);
        assertThat(report.conditions()).filteredOn(result -> result.status() != MET).extracting(ConditionResult::condition)
                .containsExactly(Condition.ROLLBACK_FACTS_COMPLETE);
        assertThat(report.conditions()).filteredOn(result -> result.condition() == Condition.ROLLBACK_FACTS_COMPLETE).first()
                .extracting(ConditionResult::explanation).asString().contains("1 event(s) parked");
    }

    @Test
    void anAttemptRequestedIsNotReady() {
        ledger.facts = new RollbackFacts(2, null, List.of());

        ReadinessReport report = check();

        assertThat(report.verdict()).isEqualTo(Verdict.NOT_READY);
        assertThat(statusOf(report, Condition.NO_ATTEMPT_REQUESTED)).isEqualTo(NOT_MET);
        assertThat(observed(report, Condition.NO_ATTEMPT_REQUESTED, NoAttemptRequested.Observed.class).requestedAttempts()).isEqualTo(2);
    }

    @Test
    void aReadModelBehindTheEventStoreIsNotReadyEvenWithNothingRequestedInIt() {
        ledger.head = 120;
        ledger.position = OptionalLong.of(119);

        assertThat(statusOf(check(), Condition.NO_ATTEMPT_REQUESTED)).isEqualTo(NOT_MET);

        ledger.position = OptionalLong.of(120);
        assertThat(check().verdict()).isEqualTo(Verdict.READY);
    }

    @Test
    void aReadModelWithoutTokensIsBehindUnlessTheEventStoreIsEmpty() {
        ledger.position = OptionalLong.empty();
        ledger.head = 5;
        assertThat(statusOf(check(), Condition.NO_ATTEMPT_REQUESTED)).isEqualTo(NOT_MET);

        ledger.head = -1;
        assertThat(statusOf(check(), Condition.NO_ATTEMPT_REQUESTED)).isEqualTo(MET);
    }

    @Test
    void aReplayIsConsumedOnlyOnceTheTargetGroupCommittedPastItsOffset() {
        ledger.facts = new RollbackFacts(0, NOW.minus(Duration.ofHours(1)), List.of(new PublishedPosition("billing", "orders", 0, 41)));

        broker.committed.put("billing", Map.of(ORDERS_0, 41L)); // 41 is the next to read: the replay at 41 is not consumed
        ReadinessReport notYet = check();
        assertThat(notYet.verdict()).isEqualTo(Verdict.NOT_READY);
        assertThat(statusOf(notYet, Condition.REPLAYS_CONSUMED)).isEqualTo(NOT_MET);
        assertThat(observed(notYet, Condition.REPLAYS_CONSUMED, ReplaysConsumed.Observed.class).replaysNotConsumed()).hasSize(1);

        broker.committed.put("billing", Map.of(ORDERS_0, 42L));
        assertThat(check().verdict()).isEqualTo(Verdict.READY);
    }

    @Test
    void aFailedOrUnknownAttemptHoldsUntilTheTargetGroupReachesTheEndOffsetRecordedAtItsDecision() {
        ledger.facts = new RollbackFacts(0, NOW.minus(Duration.ofHours(1)), List.of(),
                List.of(new MaybePublishedPosition("billing", "orders", 0, 2, 50L, 0)), 3);
        broker.visible = true;

        broker.committed.put("billing", Map.of(ORDERS_0, 49L)); // a record that landed at 49 is not read yet
        ReadinessReport notYet = check();
        assertThat(statusOf(notYet, Condition.REPLAYS_CONSUMED)).isEqualTo(NOT_MET);
        ReplaysConsumed.Observed observed = observed(notYet, Condition.REPLAYS_CONSUMED, ReplaysConsumed.Observed.class);
        assertThat(observed.maybePublishedNotConsumed()).singleElement()
                .satisfies(entry -> {
                    assertThat(entry.endOffsetAtDecision().offset()).isEqualTo(50L);
                    assertThat(entry.committedOffset()).isEqualTo(49L);
                });
        assertThat(observed.waivedAttempts()).isEqualTo(3);

        broker.committed.put("billing", Map.of(ORDERS_0, 50L));
        assertThat(check().verdict()).isEqualTo(Verdict.READY);
    }

    @Test
    void aFailedAttemptWithoutARecordedEndOffsetIsNeverShownConsumed() {
        ledger.facts = new RollbackFacts(0, NOW.minus(Duration.ofHours(1)), List.of(),
                List.of(new MaybePublishedPosition("billing", "orders", 0, 2, 50L, 1)), 0);
        broker.committed.put("billing", Map.of(ORDERS_0, 1_000L));

        ReadinessReport report = check();

        assertThat(statusOf(report, Condition.REPLAYS_CONSUMED)).isEqualTo(NOT_MET);
        assertThat(observed(report, Condition.REPLAYS_CONSUMED, ReplaysConsumed.Observed.class).maybePublishedNotConsumed()).singleElement()
                .satisfies(entry -> {
                    assertThat(entry.endOffsetAtDecision().known()).isFalse();
                    assertThat(entry.endOffsetAtDecision().json().toString()).startsWith("not recorded for 1");
                });
    }

    @Test
    void beforeTheRecordedEndOffsetOnlyTransactionMarkersLeftCountsAsConsumed() {
        ledger.facts = new RollbackFacts(0, NOW.minus(Duration.ofHours(1)), List.of(),
                List.of(new MaybePublishedPosition("billing", "orders", 0, 1, 50L, 0)), 0);
        broker.committed.put("billing", Map.of(ORDERS_0, 49L));
        broker.visible = false;

        assertThat(check().verdict()).isEqualTo(Verdict.READY);
        assertThat(broker.probes).contains(ORDERS_0);
    }

    @Test
    void aTargetGroupWithoutACommittedOffsetHasNotReadPastAFailedAttempt() {
        ledger.facts = new RollbackFacts(0, NOW.minus(Duration.ofHours(1)), List.of(),
                List.of(new MaybePublishedPosition("billing", "orders", 0, 1, 0L, 0)), 0);

        assertThat(statusOf(check(), Condition.REPLAYS_CONSUMED)).isEqualTo(NOT_MET);
    }

    @Test
    void aTargetGroupWithoutACommittedOffsetHasNotConsumedTheReplay() {
        ledger.facts = new RollbackFacts(0, NOW.minus(Duration.ofHours(1)), List.of(new PublishedPosition("billing", "orders", 0, 0)));

        assertThat(statusOf(check(), Condition.REPLAYS_CONSUMED)).isEqualTo(NOT_MET);
    }

    @Test
    void aReplayDecidedAMonthAgoAndNeverConsumedStillHoldsTheCheck() {
        ledger.facts = new RollbackFacts(0, NOW.minus(Duration.ofDays(30)), List.of(new PublishedPosition("billing", "orders", 0, 41)));
        broker.committed.put("billing", Map.of(ORDERS_0, 41L)); // the replay at 41 is the next to read: never consumed

        assertThat(statusOf(check(), Condition.REPLAYS_CONSUMED)).isEqualTo(NOT_MET);
    }

    @Test
    void waivedReplaysAreLeftOutAndShownWithWhoAndWhy() {
        RollbackFacts.Waiver waiver = new RollbackFacts.Waiver("inc-1", 2, "admin", "billing-v1 was retired", NOW.minus(Duration.ofDays(2)));
        ledger.facts = new RollbackFacts(0, NOW.minus(Duration.ofDays(30)), List.of(), List.of(), 1, List.of(), List.of(waiver));

        ReadinessReport report = check();

        assertThat(statusOf(report, Condition.REPLAYS_CONSUMED)).isEqualTo(MET);
        ReplaysConsumed.Observed observed = observed(report, Condition.REPLAYS_CONSUMED, ReplaysConsumed.Observed.class);
        assertThat(observed.waivedAttempts()).isEqualTo(1);
        assertThat(observed.recentWaivers()).containsExactly(waiver);
    }

    @Test
    void theIngestGroupBehindAVisibleDlqRecordIsNotReady() {
        broker.ends.put(DLQ_0, 10L);
        broker.committed.put("ingest", Map.of(DLQ_0, 9L));
        broker.visible = true;

        ReadinessReport report = check();

        assertThat(statusOf(report, Condition.REPLAYS_CONSUMED)).isEqualTo(NOT_MET);
        assertThat(observed(report, Condition.REPLAYS_CONSUMED, ReplaysConsumed.Observed.class).dlqPartitionsBehind()).hasSize(1);
    }

    @Test
    void theIngestGroupBeforeOnlyATransactionMarkerIsCaughtUp() {
        broker.ends.put(DLQ_0, 10L);
        broker.committed.put("ingest", Map.of(DLQ_0, 9L));
        broker.visible = false;

        assertThat(check().verdict()).isEqualTo(Verdict.READY);
        assertThat(broker.probes).isNotEmpty();
    }

    @Test
    void theIngestGroupAtTheHighWaterMarkIsCaughtUpWithoutReadingTheTopic() {
        broker.ends.put(DLQ_0, 10L);
        broker.committed.put("ingest", Map.of(DLQ_0, 10L));
        broker.visible = true;

        assertThat(check().verdict()).isEqualTo(Verdict.READY);
        assertThat(broker.probes).isEmpty();
    }

    @Test
    void theHighWaterMarksAreTakenOnceAtTheStartOfTheCheck() {
        check();

        assertThat(broker.endOffsetReads).isEqualTo(1);
    }

    @Test
    void aDecisionInsideTheRetryBoundIsNotReadyAndOneJustOutsideItIs() {
        ledger.facts = new RollbackFacts(0, NOW.minus(BOUND), List.of());
        ReadinessReport inside = check();
        assertThat(statusOf(inside, Condition.RETRY_BOUND_PASSED)).isEqualTo(NOT_MET);
        assertThat(observed(inside, Condition.RETRY_BOUND_PASSED, RetryBoundPassed.Observed.class).retryBound()).isEqualTo(BOUND);

        ledger.facts = new RollbackFacts(0, NOW.minus(BOUND).minusMillis(1), List.of());
        assertThat(check().verdict()).isEqualTo(Verdict.READY);
    }

    @Test
    void anUnreachableDatabaseIsUnknown() {
        ledger.failing = true;

        ReadinessReport report = check();

        assertThat(report.verdict()).isEqualTo(Verdict.UNKNOWN);
        assertThat(report.conditions()).allSatisfy(result -> assertThat(result.status()).isEqualTo(UNKNOWN));
        assertThat(result(report, Condition.NO_PENDING_REPLAY).explanation()).startsWith("database could not be read (error ").doesNotContain("connection refused");
    }

    @Test
    void unreachableBrokersAreUnknownAndTheDatabaseConditionsAreStillReported() {
        broker.failing = true;

        ReadinessReport report = check();

        assertThat(report.verdict()).isEqualTo(Verdict.UNKNOWN);
        assertThat(statusOf(report, Condition.REPLAYS_CONSUMED)).isEqualTo(UNKNOWN);
        assertThat(result(report, Condition.REPLAYS_CONSUMED).explanation()).startsWith("broker could not be read (error ").doesNotContain("no answer");
        assertThat(statusOf(report, Condition.NO_PENDING_REPLAY)).isEqualTo(MET);
    }

    @Test
    void unknownOutranksNotReady() {
        ledger.pending = 3;
        broker.failing = true;

        assertThat(check().verdict()).isEqualTo(Verdict.UNKNOWN);
    }

    @Test
    void aCheckThatCannotEvenStartIsUnknownForEveryCondition() {
        brokers = () -> {
            throw new IllegalArgumentException("bootstrap.servers is empty");
        };

        ReadinessReport report = check();

        assertThat(report.verdict()).isEqualTo(Verdict.UNKNOWN);
        assertThat(report.conditions()).hasSize(Condition.values().length).allSatisfy(result -> {
            assertThat(result.status()).isEqualTo(UNKNOWN);
            // the reason is in the log, under the reference: the report reaches DEPLOYER credentials
            assertThat(result.explanation()).startsWith("the check failed (error ").doesNotContain("bootstrap.servers");
        });
    }

    @Test
    void whatChangesBetweenTheTwoObservationsDecides() {
        FakeLedger changing = new FakeLedger() {
            private int reads;

            @Override
            public long pendingOutboxRows() {
                return reads++ == 0 ? 0 : 1;
            }
        };
        ReadinessReport report = new RollbackChecker(changing, () -> broker, reads, SETTINGS, INGEST, Clock.fixed(NOW, ZoneOffset.UTC),
                slept::add).check();

        assertThat(report.verdict()).isEqualTo(Verdict.NOT_READY);
        assertThat(report.observations()).isEqualTo(2);
    }

    @Test
    void noDlqTopicAtAllIsUnknownUnlessAllowed() {
        broker.ends.clear();

        ReadinessReport report = check();
        assertThat(report.verdict()).isEqualTo(Verdict.UNKNOWN);
        assertThat(result(report, Condition.REPLAYS_CONSUMED).explanation()).contains("no topic matches", "allow-no-dlq-topics");

        RollbackProperties allowing = new RollbackProperties(INTERVAL, Duration.ofSeconds(60), Duration.ofSeconds(30),
                Duration.ofSeconds(10), Duration.ZERO, Duration.ofSeconds(5), true);
        assertThat(check(allowing).verdict()).isEqualTo(Verdict.READY);
    }

    @Test
    void aReadThatHangsIsUnknownOnceItsBoundHasPassed() {
        FakeLedger hanging = new FakeLedger() {
            @Override
            public long pendingOutboxRows() {
                try {
                    Thread.sleep(30_000); // a pool waiting for a connection to a dead database
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return 0;
            }
        };
        RollbackProperties quick = new RollbackProperties(INTERVAL, Duration.ofSeconds(60), Duration.ofSeconds(30),
                Duration.ofSeconds(10), Duration.ZERO, Duration.ofMillis(300), false);
        long started = System.nanoTime();

        ReadinessReport report = new RollbackChecker(hanging, () -> broker, reads, quick, INGEST, Clock.fixed(NOW, ZoneOffset.UTC),
                slept::add).check();

        assertThat(report.verdict()).isEqualTo(Verdict.UNKNOWN);
        assertThat(result(report, Condition.NO_PENDING_REPLAY).explanation()).contains("did not answer within PT0.3S");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
    }

    @Test
    void anErrorInTheCheckIsUnknownToo() {
        brokers = () -> {
            throw new NoClassDefFoundError("org/apache/kafka/clients/admin/Admin");
        };

        assertThat(check().verdict()).isEqualTo(Verdict.UNKNOWN);
    }

    @Test
    void theVerdictsExitCodesAreZeroOneTwo() {
        assertThat(Verdict.READY.exitCode()).isZero();
        assertThat(Verdict.NOT_READY.exitCode()).isEqualTo(1);
        assertThat(Verdict.UNKNOWN.exitCode()).isEqualTo(2);
    }

    private static ConditionResult result(ReadinessReport report, Condition condition) {
        return report.conditions().stream().filter(result -> result.condition() == condition).findFirst().orElseThrow();
    }

    private static <T extends Observation> T observed(ReadinessReport report, Condition condition, Class<T> type) {
        return type.cast(result(report, condition).observed());
    }

    private static ConditionResult.Status statusOf(ReadinessReport report, Condition condition) {
        return result(report, condition).status();
    }
}

package io.dlqdesk.rollback.check;

import io.dlqdesk.rollback.IngestSubscription;
import io.dlqdesk.rollback.RollbackProperties;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Decides whether a rollback is safe now. Fail closed: anything it cannot read makes the verdict
 * UNKNOWN, never READY. READY needs every condition to hold in two observations an interval apart.
 * The high-water marks the ingest group must reach are taken once, at the start of the check.
 */
public final class RollbackChecker {

    private static final Logger log = LoggerFactory.getLogger(RollbackChecker.class);

    private final Supplier<BrokerOffsets> brokers;
    private final BoundedReads reads;
    private final IngestSubscription ingest;
    private final Duration requestTimeout;
    private final Duration observationInterval;
    private final Clock clock;
    private final Sleeper sleeper;
    private final LedgerReader ledger;
    private final NoPendingReplay noPendingReplay;
    private final NoAttemptRequested noAttemptRequested;
    private final ReplaysConsumed replaysConsumed;
    private final RetryBoundPassed retryBoundPassed;
    private final NoReplayJobActive noReplayJobActive = new NoReplayJobActive();
    private final RollbackFactsComplete rollbackFactsComplete = new RollbackFactsComplete();

    /** Waits; replaced in unit tests so that they do not. */
    @FunctionalInterface
    public interface Sleeper {
        void sleep(Duration duration) throws InterruptedException;
    }

    /**
     * @param brokers opens a broker connection for one check (closed at its end)
     * @param reads   runs every database and broker read within its bound
     * @param ingest  the consumer group that reads the DLQ topics into incidents, and those topics
     */
    public RollbackChecker(ReplayLedger ledger, Supplier<BrokerOffsets> brokers, BoundedReads reads, RollbackProperties settings,
                           IngestSubscription ingest, Clock clock, Sleeper sleeper) {
        Objects.requireNonNull(settings, "settings");
        this.brokers = Objects.requireNonNull(brokers, "brokers");
        this.reads = Objects.requireNonNull(reads, "reads");
        this.ingest = Objects.requireNonNull(ingest, "ingest");
        this.requestTimeout = settings.requestTimeout();
        this.observationInterval = settings.observationInterval();
        this.clock = Objects.requireNonNull(clock, "clock");
        this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
        this.ledger = new LedgerReader(ledger, reads, settings, clock, sleeper);
        this.noPendingReplay = new NoPendingReplay();
        this.noAttemptRequested = new NoAttemptRequested(settings.readModelWait());
        this.replaysConsumed = new ReplaysConsumed(ingest, settings.allowNoDlqTopics(), requestTimeout, reads);
        this.retryBoundPassed = new RetryBoundPassed(settings.retryBound(), clock);
    }

    public ReadinessReport check() {
        Instant started = clock.instant();
        ReadinessReport report;
        try (BrokerOffsets broker = brokers.get()) {
            Read<Map<TopicPartition, Long>> dlqEnds = reads.read("broker", () -> broker.endOffsets(ingest.topicPattern()), requestTimeout);
            List<ConditionResult> conditions = observe(broker, dlqEnds);
            int observations = 1;
            if (ReadinessReport.verdictOf(conditions) == Verdict.READY) {
                sleeper.sleep(observationInterval);
                conditions = observe(broker, dlqEnds);
                observations = 2;
            }
            report = new ReadinessReport(ReadinessReport.verdictOf(conditions), started, observations, conditions);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            report = ReadinessReport.couldNotCheck(started, "interrupted while checking");
        } catch (Throwable e) { // an Error too: whatever stops the check makes it UNKNOWN, never a 500 or an exit status 1
            report = ReadinessReport.couldNotCheck(started, Read.logged("the check failed", e));
        }
        if (report.verdict() == Verdict.READY) {
            log.info("Rollback readiness READY after {} observations", report.observations());
        } else {
            log.info("Rollback readiness {}: {}", report.verdict(), report.conditions().stream()
                    .filter(result -> result.status() != ConditionResult.Status.MET)
                    .map(result -> result.condition() + " " + result.status() + " (" + result.explanation() + ")")
                    .collect(Collectors.joining("; ")));
        }
        return report;
    }

    /** Every condition, in {@link Condition} order, over one round of database reads. */
    private List<ConditionResult> observe(BrokerOffsets broker, Read<Map<TopicPartition, Long>> dlqEnds) throws InterruptedException {
        LedgerReader.Readings database = ledger.read();
        return List.of(
                noPendingReplay.evaluate(database.pendingOutboxRows()),
                noAttemptRequested.evaluate(database.readModel(), database.facts()),
                replaysConsumed.evaluate(database.facts(), broker, dlqEnds),
                retryBoundPassed.evaluate(database.facts()),
                noReplayJobActive.evaluate(database.facts()),
                rollbackFactsComplete.evaluate(database.parkedFacts()));
    }
}

package io.dlqdesk.rollback.check;

import io.dlqdesk.projections.readiness.RollbackFacts;
import io.dlqdesk.rollback.RollbackProperties;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static io.dlqdesk.rollback.check.ConditionResult.met;
import static io.dlqdesk.rollback.check.ConditionResult.notMet;
import static io.dlqdesk.rollback.check.ConditionResult.unknown;

/**
 * Decides whether a rollback is safe now. Fail closed: anything it cannot read makes the verdict
 * UNKNOWN, never READY. READY needs every condition to hold in two observations an interval apart.
 * The high-water marks the ingest group must reach are taken once, at the start of the check.
 */
public final class RollbackChecker {

    private static final Logger log = LoggerFactory.getLogger(RollbackChecker.class);
    private static final Duration READ_MODEL_POLL = Duration.ofMillis(200);
    /** Each read waits at most its bound here, whatever the driver or client does (a pool waiting for a connection, say). */
    private static final ExecutorService READS = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "rollback-check-read");
        thread.setDaemon(true);
        return thread;
    });

    private final ReplayLedger ledger;
    private final Supplier<BrokerOffsets> brokers;
    private final RollbackProperties settings;
    private final String ingestGroup;
    private final Pattern dlqTopics;
    private final Clock clock;
    private final Sleeper sleeper;

    /** Waits; replaced in unit tests so that they do not. */
    @FunctionalInterface
    public interface Sleeper {
        void sleep(Duration duration) throws InterruptedException;
    }

    /**
     * @param brokers     opens a broker connection for one check (closed at its end)
     * @param ingestGroup the consumer group that reads the DLQ topics into incidents
     * @param dlqTopics   the DLQ topics, as the ingest loop subscribes to them
     */
    public RollbackChecker(ReplayLedger ledger, Supplier<BrokerOffsets> brokers, RollbackProperties settings, String ingestGroup,
                           Pattern dlqTopics, Clock clock, Sleeper sleeper) {
        this.ledger = Objects.requireNonNull(ledger, "ledger");
        this.brokers = Objects.requireNonNull(brokers, "brokers");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.ingestGroup = Objects.requireNonNull(ingestGroup, "ingestGroup");
        this.dlqTopics = Objects.requireNonNull(dlqTopics, "dlqTopics");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
    }

    public ReadinessReport check() {
        Instant started = clock.instant();
        ReadinessReport report;
        try (BrokerOffsets broker = brokers.get()) {
            Read<Map<TopicPartition, Long>> dlqEnds = read("broker", () -> broker.endOffsets(dlqTopics), settings.requestTimeout());
            List<ConditionResult> conditions = observe(broker, dlqEnds);
            int observations = 1;
            if (ReadinessReport.verdictOf(conditions) == Verdict.READY) {
                sleeper.sleep(settings.observationInterval());
                conditions = observe(broker, dlqEnds);
                observations = 2;
            }
            report = new ReadinessReport(ReadinessReport.verdictOf(conditions), started, observations, conditions);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            report = ReadinessReport.couldNotCheck(started, "interrupted while checking");
        } catch (Throwable e) { // an Error too: whatever stops the check makes it UNKNOWN, never a 500 or an exit status 1
            report = ReadinessReport.couldNotCheck(started, "the check failed: " + describe(e));
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

    private List<ConditionResult> observe(BrokerOffsets broker, Read<Map<TopicPartition, Long>> dlqEnds) throws InterruptedException {
        Duration bound = settings.requestTimeout();
        Read<Long> pending = read("database", ledger::pendingOutboxRows, bound);
        Instant horizonStart = clock.instant().minus(settings.horizon());
        Read<ReadModelState> readModel;
        Read<RollbackFacts> facts;
        if (pending.failed()) { // a database that did not answer once is not asked again: UNKNOWN within one bound
            readModel = new Read<>(null, pending.error());
            facts = new Read<>(null, pending.error());
        } else {
            readModel = read("database", this::awaitReadModel, settings.readModelWait().plus(bound.multipliedBy(2)));
            facts = readModel.failed() ? new Read<>(null, readModel.error()) : read("database", () -> ledger.facts(horizonStart), bound);
        }
        List<ConditionResult> results = new ArrayList<>();
        results.add(noPendingReplay(pending));
        results.add(noAttemptRequested(readModel, facts));
        results.add(replaysConsumed(broker, facts, dlqEnds, horizonStart));
        results.add(retryBoundPassed(facts));
        return results;
    }

    private ConditionResult noPendingReplay(Read<Long> pending) {
        Condition condition = Condition.NO_PENDING_REPLAY;
        if (pending.failed()) {
            return unknown(condition, pending.error());
        }
        Map<String, Object> observed = Map.of("pendingOutboxRows", pending.value());
        return pending.value() == 0 ? met(condition, "no replay waits in the outbox", observed)
                : notMet(condition, pending.value() + " replay(s) wait in the outbox to be published", observed);
    }

    private ConditionResult noAttemptRequested(Read<ReadModelState> readModel, Read<RollbackFacts> facts) {
        Condition condition = Condition.NO_ATTEMPT_REQUESTED;
        if (readModel.failed() || facts.failed()) {
            return unknown(condition, readModel.failed() ? readModel.error() : facts.error());
        }
        ReadModelState state = readModel.value();
        long requested = facts.value().requestedAttempts();
        Map<String, Object> observed = new LinkedHashMap<>();
        observed.put("requestedAttempts", requested);
        observed.put("eventStoreHead", state.head());
        observed.put("readModelPosition", state.position() == null ? "none" : state.position());
        if (!state.caughtUp()) {
            return notMet(condition, "the replay read model has not reached the event store's head within "
                    + settings.readModelWait() + ": attempts it has not seen may be in flight", observed);
        }
        return requested == 0 ? met(condition, "no attempt waits for its publish result", observed)
                : notMet(condition, requested + " attempt(s) REQUESTED: their publish results are not known yet", observed);
    }

    private ConditionResult replaysConsumed(BrokerOffsets broker, Read<RollbackFacts> facts, Read<Map<TopicPartition, Long>> dlqEnds,
                                            Instant horizonStart) throws InterruptedException {
        Condition condition = Condition.REPLAYS_CONSUMED;
        if (facts.failed()) {
            return unknown(condition, facts.error());
        }
        if (dlqEnds.failed()) {
            return unknown(condition, dlqEnds.error());
        }
        if (dlqEnds.value().isEmpty() && !settings.allowNoDlqTopics()) {
            return unknown(condition, "no topic matches the DLQ pattern " + dlqTopics + ": a wrong dlqdesk.ingest.topic-pattern or a "
                    + "principal not allowed to see the DLQ topics would look the same (dlqdesk.rollback.allow-no-dlq-topics=true accepts it)");
        }
        // bounded per broker request inside; the whole of it by as many bounds as there are requests to make
        Duration bound = settings.requestTimeout().multipliedBy(2L + facts.value().published().size()
                + 2L * facts.value().maybePublished().size() + dlqEnds.value().size());
        Read<ConsumptionState> consumption = read("broker", () -> consumption(broker, facts.value(), dlqEnds.value()), bound);
        if (consumption.failed()) {
            return unknown(condition, consumption.error());
        }
        ConsumptionState state = consumption.value();
        Map<String, Object> observed = new LinkedHashMap<>();
        observed.put("horizonStart", horizonStart);
        observed.put("replaysChecked", facts.value().published().size());
        observed.put("replaysNotConsumed", state.notConsumed());
        observed.put("maybePublishedChecked", facts.value().maybePublished().size());
        observed.put("maybePublishedNotConsumed", state.maybeNotConsumed());
        observed.put("attemptsDecidedBeforeHorizon", facts.value().decidedBeforeHorizon());
        observed.put("ingestGroup", ingestGroup);
        observed.put("dlqPartitionsChecked", dlqEnds.value().size());
        observed.put("dlqPartitionsBehind", state.behind());
        if (state.notConsumed().isEmpty() && state.maybeNotConsumed().isEmpty() && state.behind().isEmpty()) {
            return met(condition, "every replay published since " + horizonStart + " was consumed by its target group, every "
                    + "target group read past the end offsets recorded when attempts that may have gone out were decided, and "
                    + ingestGroup + " has read the DLQ topics up to their high-water marks", observed);
        }
        List<String> reasons = new ArrayList<>();
        if (!state.notConsumed().isEmpty()) {
            reasons.add(state.notConsumed().size() + " replayed record(s) not yet consumed by their target group");
        }
        if (!state.maybeNotConsumed().isEmpty()) {
            reasons.add(state.maybeNotConsumed().size() + " partition(s) where a PUBLISH_FAILED or PUBLISH_UNKNOWN attempt may have "
                    + "landed and the target group has not read up to the end offset recorded at the decision (or none was recorded)");
        }
        if (!state.behind().isEmpty()) {
            reasons.add(state.behind().size() + " DLQ partition(s) not yet read up to the high-water mark by " + ingestGroup);
        }
        return notMet(condition, String.join("; ", reasons), observed);
    }

    private ConsumptionState consumption(BrokerOffsets broker, RollbackFacts facts, Map<TopicPartition, Long> dlqEnds) {
        List<Map<String, Object>> maybeNotConsumed = maybePublishedNotConsumed(broker, facts);
        List<Map<String, Object>> notConsumed = new ArrayList<>();
        Map<String, List<RollbackFacts.PublishedPosition>> byGroup = facts.published().stream()
                .collect(Collectors.groupingBy(RollbackFacts.PublishedPosition::targetGroup, TreeMap::new, Collectors.toList()));
        byGroup.forEach((group, positions) -> {
            Map<TopicPartition, Long> committed = broker.committedOffsets(group);
            for (RollbackFacts.PublishedPosition position : positions) {
                Long offset = committed.get(new TopicPartition(position.topic(), position.partition()));
                // a committed offset is the next one the group reads: past the replayed record means consumed
                if (offset == null || offset <= position.highestOffset()) {
                    Map<String, Object> entry = new LinkedHashMap<>();
                    entry.put("targetGroup", group);
                    entry.put("topic", position.topic());
                    entry.put("partition", position.partition());
                    entry.put("replayedOffset", position.highestOffset());
                    entry.put("committedOffset", offset == null ? "none" : offset);
                    notConsumed.add(entry);
                }
            }
        });
        List<Map<String, Object>> behind = new ArrayList<>();
        Map<TopicPartition, Long> committed = broker.committedOffsets(ingestGroup);
        dlqEnds.entrySet().stream()
                .sorted(Map.Entry.comparingByKey((a, b) -> a.topic().equals(b.topic()) ? Integer.compare(a.partition(), b.partition())
                        : a.topic().compareTo(b.topic())))
                .forEach(end -> {
                    Long offset = committed.get(end.getKey());
                    long from = offset == null ? 0 : offset;
                    if (from < end.getValue() && broker.visibleRecordsBetween(end.getKey(), from, end.getValue())) {
                        Map<String, Object> entry = new LinkedHashMap<>();
                        entry.put("topic", end.getKey().topic());
                        entry.put("partition", end.getKey().partition());
                        entry.put("highWatermark", end.getValue());
                        entry.put("committedOffset", offset == null ? "none" : offset);
                        behind.add(entry);
                    }
                });
        return new ConsumptionState(notConsumed, maybeNotConsumed, behind);
    }

    /**
     * PUBLISH_FAILED and PUBLISH_UNKNOWN attempts may have gone out: any record of theirs lies below the end offset recorded
     * when they were decided, so the target group must have read up to it (or only invisible records, transaction markers
     * and aborted ones, remain before it). Without a recorded end offset nothing can show it consumed: fail closed.
     */
    private List<Map<String, Object>> maybePublishedNotConsumed(BrokerOffsets broker, RollbackFacts facts) {
        List<Map<String, Object>> notConsumed = new ArrayList<>();
        Map<String, List<RollbackFacts.MaybePublishedPosition>> byGroup = facts.maybePublished().stream()
                .collect(Collectors.groupingBy(RollbackFacts.MaybePublishedPosition::targetGroup, TreeMap::new, Collectors.toList()));
        byGroup.forEach((group, positions) -> {
            Map<TopicPartition, Long> committed = broker.committedOffsets(group);
            for (RollbackFacts.MaybePublishedPosition position : positions) {
                TopicPartition partition = new TopicPartition(position.topic(), position.partition());
                Long offset = committed.get(partition);
                Long end = position.highestEndOffset();
                boolean endKnown = position.withoutEndOffset() == 0 && end != null;
                boolean consumed = endKnown && offset != null
                        && (offset >= end || !broker.visibleRecordsBetween(partition, offset, end));
                if (!consumed) {
                    Map<String, Object> entry = new LinkedHashMap<>();
                    entry.put("targetGroup", group);
                    entry.put("topic", position.topic());
                    entry.put("partition", position.partition());
                    entry.put("attempts", position.attempts());
                    entry.put("endOffsetAtDecision", endKnown ? end
                            : "not recorded for " + position.withoutEndOffset() + " of the attempts (fails closed until they leave the horizon)");
                    entry.put("committedOffset", offset == null ? "none" : offset);
                    notConsumed.add(entry);
                }
            }
        });
        return notConsumed;
    }

    private ConditionResult retryBoundPassed(Read<RollbackFacts> facts) {
        Condition condition = Condition.RETRY_BOUND_PASSED;
        if (facts.failed()) {
            return unknown(condition, facts.error());
        }
        Instant last = facts.value().lastDecisionAt();
        Instant now = clock.instant();
        Map<String, Object> observed = new LinkedHashMap<>();
        observed.put("lastDecisionAt", last == null ? "none" : last);
        observed.put("retryBound", settings.retryBound().toString());
        observed.put("now", now);
        if (last == null) {
            return met(condition, "no replay was ever decided", observed);
        }
        Instant clearAt = last.plus(settings.retryBound());
        observed.put("clearAt", clearAt);
        return clearAt.isBefore(now) ? met(condition, "the retry bound after the last publish decision has passed", observed)
                : notMet(condition, "a consumer may still re-fail the last replay until " + clearAt, observed);
    }

    /** Reads the event store's head once, then waits (bounded) for the read model to reach it. */
    private ReadModelState awaitReadModel() throws InterruptedException {
        long head = ledger.eventStoreHead();
        long waitUntil = System.nanoTime() + settings.readModelWait().toNanos();
        while (true) {
            OptionalLong position = ledger.readModelPosition();
            boolean caughtUp = head < 0 || (position.isPresent() && position.getAsLong() >= head);
            if (caughtUp || System.nanoTime() >= waitUntil) {
                return new ReadModelState(head, position.isPresent() ? position.getAsLong() : null, caughtUp);
            }
            sleeper.sleep(READ_MODEL_POLL);
        }
    }

    private static <T> Read<T> read(String source, Callable<T> reading, Duration bound) throws InterruptedException {
        Future<T> result = READS.submit(reading);
        try {
            return new Read<>(result.get(bound.toMillis(), TimeUnit.MILLISECONDS), null);
        } catch (InterruptedException e) {
            result.cancel(true);
            throw e;
        } catch (TimeoutException e) {
            result.cancel(true);
            return new Read<>(null, source + " did not answer within " + bound);
        } catch (ExecutionException e) {
            return new Read<>(null, source + " could not be read: " + describe(e.getCause()));
        }
    }

    private static String describe(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root == failure ? String.valueOf(failure.getMessage())
                : failure.getMessage() + " (cause: " + root.getClass().getSimpleName() + ": " + root.getMessage() + ")";
        return failure.getClass().getSimpleName() + ": " + message;
    }

    private record Read<T>(T value, String error) {
        boolean failed() {
            return error != null;
        }
    }

    private record ReadModelState(long head, Long position, boolean caughtUp) {
    }

    private record ConsumptionState(List<Map<String, Object>> notConsumed, List<Map<String, Object>> maybeNotConsumed,
                                    List<Map<String, Object>> behind) {
    }
}

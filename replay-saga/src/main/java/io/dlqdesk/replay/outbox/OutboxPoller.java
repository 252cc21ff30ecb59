package io.dlqdesk.replay.outbox;

import io.dlqdesk.domain.api.PublishResult;
import io.dlqdesk.domain.api.RecordLocation;
import io.dlqdesk.domain.api.RecordPublishResultCommand;
import io.dlqdesk.domain.api.PayloadHash;
import io.dlqdesk.domain.api.RecordKey;
import io.dlqdesk.replay.request.ReplaySwitch;
import io.dlqdesk.replay.source.PartitionEndReader;
import io.dlqdesk.replay.source.SourceRead;
import io.dlqdesk.replay.source.SourceRecordReader;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.util.backoff.BackOffExecution;
import org.springframework.util.backoff.ExponentialBackOff;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Publishes due outbox rows, one row per database transaction: claim it ({@code FOR UPDATE SKIP
 * LOCKED}, so instances never take the same row), re-read the source record and check it is still
 * the recorded one, send, mark the row, commit, then report the result to the incident. While the
 * switch is off nothing is sent.
 * <p>
 * Once the broker has acknowledged, the row is never counted as a failed try: if marking it SENT (or
 * committing that) fails, the claim is rolled back and the mark is tried again in fresh transactions
 * with a bounded backoff. Only if it cannot be written within {@code markSentRetryFor} (or after a
 * crash) the row stays PENDING with its tries unchanged and is sent again: publishing is
 * at-least-once, consumers deduplicate by eventId. Meanwhile another instance may claim and re-send it.
 * <p>
 * A row marked FAILED records its target partition's end offset, read when it is decided: an earlier
 * try that timed out may have landed below it (the rollback check requires the target group to reach it).
 */
public class OutboxPoller implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(OutboxPoller.class);

    /**
     * How the poller tries: how often it looks, how many tries a row gets, the backoff between them, and
     * how long it keeps trying to record an acknowledged send as SENT.
     */
    public record Settings(Duration pollInterval, int maxTries, Duration initialBackoff, Duration maxBackoff, Duration markSentRetryFor) {
    }

    /** The first pause before marking an acknowledged row SENT again; doubled up to the max backoff. */
    private static final Duration MARK_SENT_FIRST_PAUSE = Duration.ofMillis(100);

    private final ReplayOutbox outbox;
    private final SourceRecordReader reader;
    private final ReplayPublisher publisher;
    private final PartitionEndReader ends;
    private final ReplaySwitch replaySwitch;
    private final CommandGateway commands;
    private final TransactionTemplate transactions;
    private final Settings settings;
    private final Counter published;
    private final Counter failedTries;
    private final Counter failed;
    private ScheduledExecutorService scheduler;
    private volatile boolean running;

    public OutboxPoller(ReplayOutbox outbox, SourceRecordReader reader, ReplayPublisher publisher, PartitionEndReader ends,
                        ReplaySwitch replaySwitch, CommandGateway commands, TransactionTemplate transactions, Settings settings,
                        MeterRegistry meters) {
        this.outbox = outbox;
        this.reader = reader;
        this.publisher = publisher;
        this.ends = ends;
        this.replaySwitch = replaySwitch;
        this.commands = commands;
        this.transactions = transactions;
        this.settings = settings;
        this.published = Counter.builder("dlq.replay.published").description("replays the broker acknowledged").register(meters);
        this.failedTries = Counter.builder("dlq.replay.failed_tries").description("publish tries that failed").register(meters);
        this.failed = Counter.builder("dlq.replay.publish_failed").description("replays FAILED after their last try").register(meters);
        Gauge.builder("dlq.replay.outbox_pending", outbox, ReplayOutbox::pendingCount)
                .description("outbox rows not decided yet").register(meters);
    }

    /** One pass: every due row, until none is left. Public for tests that drive it by hand. */
    public void pollOnce() {
        while (replaySwitch.isOn() && (running || scheduler == null)) {
            AtomicReference<Acknowledged> acknowledged = new AtomicReference<>();
            Optional<Decision> decision;
            try {
                decision = transactions.execute(status -> outbox.claimDue().map(row -> decide(row, acknowledged)));
            } catch (RuntimeException e) {
                if (acknowledged.get() == null) {
                    throw e;
                }
                decision = Optional.of(markSentAfterAck(acknowledged.get(), e)); // the claim rolled back: no try counted
            }
            if (decision == null || decision.isEmpty()) {
                return;
            }
            Decision decided = decision.get();
            decided.result().ifPresent(result -> report(decided.row(), result));
        }
    }

    private record Decision(OutboxRow row, Optional<PublishResult> result) {
    }

    /** The broker acknowledged this row's record at {@code at}; from here on nothing may count a failed try. */
    private record Acknowledged(OutboxRow row, RecordLocation at) {
    }

    private Decision decide(OutboxRow row, AtomicReference<Acknowledged> acknowledged) {
        if (outbox.pastDeadline(row.replayId())) { // held (switch off, retries) past it: consumers may no longer deduplicate
            return failForGood(row, "past the replay deadline, not published");
        }
        try {
            return readAndSend(row, acknowledged);
        } catch (RuntimeException e) {
            if (acknowledged.get() != null) {
                throw e; // sent: rolled back and marked again by pollOnce, never a failed try
            }
            // anything else about this row: a failed try, never a poller stuck on it
            return failedTry(row, e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    private Decision readAndSend(OutboxRow row, AtomicReference<Acknowledged> acknowledged) {
        SourceRead read = reader.read(row.source());
        if (read instanceof SourceRead.Unavailable unavailable) {
            return failedTry(row, "source record could not be read: " + unavailable.detail());
        }
        if (read instanceof SourceRead.NotThere notThere && notThere.reason() == SourceRead.Reason.AT_OR_AFTER_LOG_END) {
            // beyond the stable offset, e.g. behind an open transaction: it may become readable
            return failedTry(row, "source record not readable yet: " + notThere.detail());
        }
        String changed = changedSince(row, read);
        if (changed != null) { // the record at that location is no longer the one replay was accepted for: retrying cannot help
            return failForGood(row, changed);
        }
        ConsumerRecord<byte[], byte[]> source = ((SourceRead.Found) read).record();
        RecordLocation at;
        try {
            at = publisher.send(publisher.replayOf(source, row));
        } catch (ReplayPublisher.PublishFailedException e) {
            return failedTry(row, "publish failed: " + e.getMessage());
        }
        acknowledged.set(new Acknowledged(row, at));
        published.increment();
        log.info("replay {} published to {}", row.replayId(), at);
        // a database error from here on is not a failed try: pollOnce rolls the claim back and marks it SENT again
        return new Decision(row, Optional.of(outbox.markSent(row.replayId(), at)));
    }

    /**
     * Marks an acknowledged row SENT in fresh transactions, with a backoff, for up to {@code markSentRetryFor}.
     * If the row was decided meanwhile (another instance claimed and re-sent it), that decision is returned.
     * If it cannot be written, {@code firstError} (or the last error) is thrown: the row stays PENDING with its
     * tries unchanged and is sent again in a later round.
     */
    private Decision markSentAfterAck(Acknowledged acknowledged, RuntimeException firstError) {
        String replayId = acknowledged.row().replayId();
        log.warn("replay {} was acknowledged at {} but could not be recorded SENT, retrying for {}: {}", replayId, acknowledged.at(),
                settings.markSentRetryFor(), firstError.toString());
        long giveUpAt = System.nanoTime() + settings.markSentRetryFor().toNanos();
        ExponentialBackOff backOff = new ExponentialBackOff(MARK_SENT_FIRST_PAUSE.toMillis(), 2.0);
        backOff.setMaxInterval(settings.maxBackoff().toMillis());
        BackOffExecution pauses = backOff.start();
        RuntimeException last = firstError;
        while (System.nanoTime() < giveUpAt && (running || scheduler == null)) {
            try {
                Thread.sleep(pauses.nextBackOff());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            try {
                PublishResult result = transactions.execute(status -> outbox.markSent(replayId, acknowledged.at()));
                log.info("replay {} recorded SENT after the ack", replayId);
                return new Decision(acknowledged.row(), Optional.ofNullable(result));
            } catch (RuntimeException e) {
                last = e;
                log.warn("replay {} still not recorded SENT: {}", replayId, e.toString());
            }
        }
        log.error("replay {} was acknowledged at {} but not recorded SENT within {}: it stays PENDING (no try counted) and is sent again",
                replayId, acknowledged.at(), settings.markSentRetryFor());
        throw last;
    }

    /** FAILED for good, with the target partition's end offset now: any earlier try that landed lies below it. */
    private Decision failForGood(OutboxRow row, String reason) {
        OptionalLong end = ends.endOffset(row.source().topic(), row.source().partition());
        log.warn("replay {} FAILED (end offset of its target partition: {}): {}", row.replayId(),
                end.isPresent() ? end.getAsLong() : "not readable", reason);
        failed.increment();
        return new Decision(row, Optional.of(outbox.markFailed(row.replayId(), reason, end.isPresent() ? end.getAsLong() : null)));
    }

    /** Why the source is no longer the recorded record, or null when it still is. */
    private static String changedSince(OutboxRow row, SourceRead read) {
        if (read instanceof SourceRead.NotThere notThere) {
            return "source record gone: " + notThere.detail();
        }
        if (read instanceof SourceRead.NothingReadable nothing) {
            return "source record gone: " + nothing.detail();
        }
        ConsumerRecord<byte[], byte[]> record = ((SourceRead.Found) read).record();
        if (record.offset() != row.source().offset()) {
            return "source offset " + row.source().offset() + " now returns offset " + record.offset() + " (compacted)";
        }
        if (record.value() == null || !PayloadHash.of(record.value()).equals(row.valueHash())) {
            return "source value no longer has the recorded SHA-256";
        }
        if (!RecordKey.of(record.key()).equals(row.key())) {
            return "source key is no longer the recorded key";
        }
        return null;
    }

    private Decision failedTry(OutboxRow row, String reason) {
        failedTries.increment();
        int tries = row.tries() + 1;
        if (tries >= settings.maxTries()) {
            return failForGood(row, "after " + tries + " tries: " + reason);
        }
        Duration backoff = backoff(tries);
        log.warn("replay {} try {} of {} failed, next in {}: {}", row.replayId(), tries, settings.maxTries(), backoff, reason);
        outbox.deferAfterFailedTry(row.replayId(), reason, backoff);
        return new Decision(row, Optional.empty());
    }

    private Duration backoff(int triesSoFar) {
        Duration backoff = settings.initialBackoff().multipliedBy(1L << Math.min(triesSoFar - 1, 20));
        return backoff.compareTo(settings.maxBackoff()) > 0 ? settings.maxBackoff() : backoff;
    }

    /** After the commit: if this fails, the saga's reconciliation deadline sends the result again. */
    private void report(OutboxRow row, PublishResult result) {
        commands.send(new RecordPublishResultCommand(row.incidentId(), row.attempt(), result)).whenComplete((ignored, error) -> {
            if (error != null) {
                log.warn("result of replay {} not recorded yet (reconciliation will retry): {}", row.replayId(), error.toString());
            }
        });
    }

    private void pollSafely() {
        try {
            pollOnce();
        } catch (RuntimeException e) { // a rolled-back row stays PENDING and is taken again next time
            log.warn("outbox poll failed, retrying in {}: {}", settings.pollInterval(), e.toString());
        } catch (Throwable e) { // anything escaping would cancel the schedule silently
            log.error("outbox poll failed, retrying in {}", settings.pollInterval(), e);
        }
    }

    @Override
    public synchronized void start() {
        running = true;
        scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "replay-outbox-poller");
            thread.setDaemon(true);
            return thread;
        });
        scheduler.scheduleWithFixedDelay(this::pollSafely, 0, settings.pollInterval().toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void stop() {
        running = false; // the current row finishes; no further row is claimed
        if (scheduler != null) {
            scheduler.shutdown();
            try {
                // let a row being sent finish rather than interrupt it between ack and commit
                if (!scheduler.awaitTermination(30, TimeUnit.SECONDS)) {
                    scheduler.shutdownNow();
                }
            } catch (InterruptedException e) {
                scheduler.shutdownNow();
                Thread.currentThread().interrupt();
            }
            scheduler = null;
        }
        publisher.close();
    }

    @Override
    public synchronized boolean isRunning() {
        return scheduler != null;
    }

    @Override
    public int getPhase() {
        return Integer.MAX_VALUE - 200; // after Axon and the database are up; stopped before them
    }
}

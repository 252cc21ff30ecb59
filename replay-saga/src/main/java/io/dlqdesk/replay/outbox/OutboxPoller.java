package io.dlqdesk.replay.outbox;

import io.dlqdesk.domain.api.PublishResult;
import io.dlqdesk.domain.api.RecordLocation;
import io.dlqdesk.domain.api.RecordPublishResultCommand;
import io.dlqdesk.domain.api.PayloadHash;
import io.dlqdesk.domain.api.RecordKey;
import io.dlqdesk.replay.request.ReplaySwitch;
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

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Publishes due outbox rows, one row per database transaction: claim it ({@code FOR UPDATE SKIP
 * LOCKED}, so instances never take the same row), re-read the source record and check it is still
 * the recorded one, send, mark the row, commit, then report the result to the incident. A crash
 * between the broker's ack and the commit leaves the row PENDING and it is sent again: publishing
 * is at-least-once, consumers deduplicate by eventId. While the switch is off nothing is sent.
 */
public class OutboxPoller implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(OutboxPoller.class);

    /** How the poller tries: how often it looks, how many tries a row gets, and the backoff between them. */
    public record Settings(Duration pollInterval, int maxTries, Duration initialBackoff, Duration maxBackoff) {
    }

    private final ReplayOutbox outbox;
    private final SourceRecordReader reader;
    private final ReplayPublisher publisher;
    private final ReplaySwitch replaySwitch;
    private final CommandGateway commands;
    private final TransactionTemplate transactions;
    private final Settings settings;
    private final Counter published;
    private final Counter failedTries;
    private final Counter failed;
    private ScheduledExecutorService scheduler;
    private volatile boolean running;

    public OutboxPoller(ReplayOutbox outbox, SourceRecordReader reader, ReplayPublisher publisher, ReplaySwitch replaySwitch,
                        CommandGateway commands, TransactionTemplate transactions, Settings settings, MeterRegistry meters) {
        this.outbox = outbox;
        this.reader = reader;
        this.publisher = publisher;
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
            Optional<Decision> decision = transactions.execute(status -> outbox.claimDue().map(this::decide));
            if (decision == null || decision.isEmpty()) {
                return;
            }
            decision.get().result().ifPresent(result -> report(decision.get().row(), result));
        }
    }

    private record Decision(OutboxRow row, Optional<PublishResult> result) {
    }

    private Decision decide(OutboxRow row) {
        if (outbox.pastDeadline(row.replayId())) { // held (switch off, retries) past it: consumers may no longer deduplicate
            log.warn("replay {} FAILED: past its replay deadline", row.replayId());
            failed.increment();
            return new Decision(row, Optional.of(outbox.markFailed(row.replayId(), "past the replay deadline, not published")));
        }
        try {
            return readAndSend(row);
        } catch (RuntimeException e) { // anything about this row: a failed try, never a poller stuck on it
            return failedTry(row, e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    private Decision readAndSend(OutboxRow row) {
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
            log.warn("replay {} FAILED: {}", row.replayId(), changed);
            failed.increment();
            return new Decision(row, Optional.of(outbox.markFailed(row.replayId(), changed)));
        }
        ConsumerRecord<byte[], byte[]> source = ((SourceRead.Found) read).record();
        RecordLocation at;
        try {
            at = publisher.send(publisher.replayOf(source, row));
        } catch (ReplayPublisher.PublishFailedException e) {
            return failedTry(row, "publish failed: " + e.getMessage());
        }
        // a database error from here on rolls back: the row stays PENDING and is sent again (at least once)
        PublishResult result = outbox.markSent(row.replayId(), at);
        published.increment();
        log.info("replay {} published to {}", row.replayId(), at);
        return new Decision(row, Optional.of(result));
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
            log.warn("replay {} FAILED after {} tries: {}", row.replayId(), tries, reason);
            failed.increment();
            return new Decision(row, Optional.of(outbox.markFailed(row.replayId(), "after " + tries + " tries: " + reason)));
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

package io.dlqdesk.replay.outbox;

import io.dlqdesk.replay.outbox.ReplayPublisher.Sent;
import org.springframework.util.backoff.BackOffExecution;
import org.springframework.util.backoff.ExponentialBackOff;

import java.time.Duration;

/**
 * Decides one claimed row from the facts its round gathered: whether its replay deadline had passed, what the
 * source check found, what the send gave. Nothing else: the poller reads, sends, records and counts.
 * <p>
 * A failed try makes the row due again after an exponential backoff (doubling from {@code initialBackoff} up to
 * {@code maxBackoff}); the {@code maxTries}-th failed try makes it FAILED. A changed source record or a passed
 * deadline makes it FAILED at once: no try can help.
 */
public final class RowDecider {

    private final int maxTries;
    private final ExponentialBackOff backOff;

    public RowDecider(int maxTries, Duration initialBackoff, Duration maxBackoff) {
        this.maxTries = maxTries;
        this.backOff = new ExponentialBackOff(initialBackoff.toMillis(), 2.0);
        this.backOff.setMaxInterval(maxBackoff.toMillis());
    }

    /** Held past its replay deadline (switch off, retries): consumers may no longer deduplicate it, so it is never sent. */
    public RowDecision pastDeadline(OutboxRow row) {
        return new RowDecision.Failed(row, "past the replay deadline, not published", false, null);
    }

    /** Not sent because of its source check: a changed record fails the row for good, an unreadable one costs a try. */
    public RowDecision refused(OutboxRow row, SourceCheck.Refused refused) {
        if (refused instanceof SourceCheck.Changed changed) {
            return new RowDecision.Failed(row, changed.reason(), false, null);
        }
        return failedTry(row, refused.reason());
    }

    /** SENT when the broker acknowledged; anything else is a failed try (the record may still have landed). */
    public RowDecision sent(OutboxRow row, Sent sent) {
        if (sent instanceof Sent.Acknowledged acknowledged) {
            return new RowDecision.Sent(row, acknowledged.at());
        }
        return failedTry(row, "publish failed: " + ((Sent.Failed) sent).error().getMessage());
    }

    /** A try that failed for {@code reason}: due again after the backoff, or FAILED if it was the last. */
    public RowDecision failedTry(OutboxRow row, String reason) {
        int tries = row.tries() + 1;
        if (tries >= maxTries) {
            return new RowDecision.Failed(row, "after " + tries + " tries: " + reason, true, null);
        }
        return new RowDecision.Deferred(row, reason, pauseAfter(tries));
    }

    /** The pause after the {@code tries}-th failed try. A row's tries are kept in its row, so the schedule is walked up to it. */
    private Duration pauseAfter(int tries) {
        BackOffExecution pauses = backOff.start();
        long pause = pauses.nextBackOff();
        for (int i = 1; i < tries; i++) {
            pause = pauses.nextBackOff();
        }
        return Duration.ofMillis(pause);
    }
}

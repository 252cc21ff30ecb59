package io.dlqdesk.retention;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The start-up rule: a record may be replayed until its original timestamp plus the replay window,
 * and the consumers must still remember its eventId then, with room for clock skew and for the
 * delay before the broker actually deletes a segment. So window + skew margin + cleanup-delay margin
 * must fit within the consumers' declared idempotency retention, and both margins must be positive.
 */
public record RetentionBudget(Duration replayWindow, Duration clockSkewMargin, Duration cleanupDelayMargin,
                              Duration consumerIdempotencyRetention) {

    static final String REPLAY_WINDOW = "dlqdesk.replay-window";
    static final String CLOCK_SKEW_MARGIN = "dlqdesk.retention.clock-skew-margin";
    static final String CLEANUP_DELAY_MARGIN = "dlqdesk.retention.cleanup-delay-margin";
    static final String IDEMPOTENCY_RETENTION = "dlqdesk.retention.consumer-idempotency-retention";

    /** Every violation, each naming the properties and values involved; empty when the budget holds. */
    public List<String> violations() {
        List<String> violations = new ArrayList<>();
        if (!positive(replayWindow)) {
            violations.add(REPLAY_WINDOW + "=" + replayWindow + " must be positive");
        }
        if (!positive(clockSkewMargin)) {
            violations.add(CLOCK_SKEW_MARGIN + "=" + clockSkewMargin + " must be positive");
        }
        if (!positive(cleanupDelayMargin)) {
            violations.add(CLEANUP_DELAY_MARGIN + "=" + cleanupDelayMargin + " must be positive");
        }
        if (!positive(consumerIdempotencyRetention)) {
            violations.add(IDEMPOTENCY_RETENTION + "=" + consumerIdempotencyRetention + " must be positive");
        }
        if (violations.isEmpty()) {
            Duration needed = replayWindow.plus(clockSkewMargin).plus(cleanupDelayMargin);
            if (needed.compareTo(consumerIdempotencyRetention) > 0) {
                violations.add(REPLAY_WINDOW + "=" + replayWindow + " + " + CLOCK_SKEW_MARGIN + "=" + clockSkewMargin + " + "
                        + CLEANUP_DELAY_MARGIN + "=" + cleanupDelayMargin + " = " + needed + " exceeds " + IDEMPOTENCY_RETENTION + "="
                        + consumerIdempotencyRetention + ": a replay could reach consumers that no longer remember the eventId");
            }
        }
        return violations;
    }

    private static boolean positive(Duration duration) {
        return duration != null && !duration.isNegative() && !duration.isZero();
    }
}

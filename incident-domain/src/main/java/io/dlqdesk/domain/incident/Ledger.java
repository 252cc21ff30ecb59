package io.dlqdesk.domain.incident;

import io.dlqdesk.domain.InvalidValueException;
import java.time.Duration;
import java.util.Objects;

/**
 * This deployment of the desk as the rules see it.
 *
 * @param name         its name in the replay correlation headers: a re-failure names the ledger that replayed it
 * @param replayWindow how long after its original timestamp a failed record may still be replayed
 */
public record Ledger(String name, Duration replayWindow) {

    public static final Duration MAX_REPLAY_WINDOW = Duration.ofDays(365);

    public Ledger {
        if (name == null || name.isBlank()) {
            throw new InvalidValueException("dlqdesk.ledger-name must not be blank");
        }
        Objects.requireNonNull(replayWindow, "dlqdesk.replay-window");
        if (replayWindow.isNegative() || replayWindow.isZero() || replayWindow.compareTo(MAX_REPLAY_WINDOW) > 0) {
            throw new InvalidValueException("dlqdesk.replay-window must be positive and at most 365 days, was " + replayWindow);
        }
    }
}

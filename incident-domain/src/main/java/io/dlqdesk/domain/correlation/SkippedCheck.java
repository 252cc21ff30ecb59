package io.dlqdesk.domain.correlation;

import java.util.Objects;

/**
 * A correlation check that could not hold for reasons of the broker, not of the record, and was left out, with why: the
 * re-failure correlated on the checks that can. {@code check} is the code the check reports when it fails.
 */
public record SkippedCheck(CorrelationMismatch check, String reason) {

    public SkippedCheck {
        Objects.requireNonNull(check, "check");
        Objects.requireNonNull(reason, "reason");
    }
}

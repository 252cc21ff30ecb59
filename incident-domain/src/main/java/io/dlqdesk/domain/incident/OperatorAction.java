package io.dlqdesk.domain.incident;

import io.dlqdesk.domain.InvalidValueException;
import java.time.Instant;
import java.util.Objects;

/** Who did something, why, and when. Every operator event carries one; the instant is the caller's "now". */
public record OperatorAction(String principal, String reason, Instant at) {

    public static final int MAX_PRINCIPAL_LENGTH = 256;
    public static final int MAX_REASON_LENGTH = 2000;

    public OperatorAction {
        Objects.requireNonNull(principal, "principal");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(at, "at");
        if (principal.isBlank() || principal.length() > MAX_PRINCIPAL_LENGTH) {
            throw new InvalidValueException("principal must be 1.." + MAX_PRINCIPAL_LENGTH + " non-blank characters");
        }
        if (reason.isBlank() || reason.length() > MAX_REASON_LENGTH) {
            throw new InvalidValueException("a reason is mandatory, at most " + MAX_REASON_LENGTH + " characters");
        }
    }
}

package io.dlqdesk.domain.incident;

import io.dlqdesk.domain.InvalidValueException;
import java.util.Objects;

/** Argument checks shared by several commands. */
public final class CommandArguments {

    public static final int MAX_NAME_LENGTH = 249;

    private CommandArguments() {
    }

    public static void requireName(String ledgerName) {
        Objects.requireNonNull(ledgerName, "ledgerName");
        if (ledgerName.isBlank() || ledgerName.length() > MAX_NAME_LENGTH) {
            throw new InvalidValueException("ledgerName must be 1.." + MAX_NAME_LENGTH + " non-blank characters");
        }
    }

    public static void requireAttempt(int attempt) {
        if (attempt < 1) {
            throw new InvalidValueException("attempts are numbered from 1, was " + attempt);
        }
    }
}

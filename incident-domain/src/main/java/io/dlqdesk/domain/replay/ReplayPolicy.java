package io.dlqdesk.domain.replay;

import io.dlqdesk.domain.InvalidValueException;

/**
 * The replay policy that applies to the incident's topic, from the application's configuration.
 * {@code maxAttempts} bounds replays per incident, so a record that keeps failing cannot be
 * replayed in an endless loop.
 */
public record ReplayPolicy(boolean topicAllowed, int maxAttempts) {

    public static final int MAX_ATTEMPTS_LIMIT = 100;

    public ReplayPolicy {
        if (maxAttempts < 1 || maxAttempts > MAX_ATTEMPTS_LIMIT) {
            throw new InvalidValueException("maxAttempts must be 1.." + MAX_ATTEMPTS_LIMIT + ", was " + maxAttempts);
        }
    }
}

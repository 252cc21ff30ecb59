package io.dlqdesk.notifications.delivery;

import java.time.Duration;

/**
 * Per receiver and event: the first {@code limit} notifications of a {@code window} are sent one by one; the rest are
 * held and, when the window ends, sent as one message that counts them. A window starts with the first notification
 * after the previous one ended, so a receiver gets at most {@code limit} + 1 messages of an event per window.
 */
public record RateLimit(int limit, Duration window) {

    public RateLimit {
        if (limit < 1 || window.isZero() || window.isNegative()) {
            throw new IllegalArgumentException("a rate limit is at least 1 per a positive window, was " + limit + " per " + window);
        }
    }

    /** "5 min", "45 s", "1 h": the window as the summary message says it. */
    String windowText() {
        if (window.toSeconds() % 3600 == 0) {
            return window.toHours() + " h";
        }
        if (window.toSeconds() % 60 == 0) {
            return window.toMinutes() + " min";
        }
        return window.toMillis() % 1000 == 0 ? window.toSeconds() + " s" : window.toMillis() + " ms";
    }
}

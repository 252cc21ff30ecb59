package io.dlqdesk.notifications.delivery;

import io.dlqdesk.notifications.NotificationProperties.Webhook;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Counters of the senders, per receiver (configured, so bounded), registered at start so every receiver's series
 * exists before its first delivery: {@code dlq.notifications.delivered}, {@code .failed_tries}, {@code .given_up},
 * {@code .coalesced}.
 */
public final class NotificationMetrics {

    private final Map<String, Counter> delivered = new HashMap<>();
    private final Map<String, Counter> failedTries = new HashMap<>();
    private final Map<String, Counter> givenUp = new HashMap<>();
    private final Map<String, Counter> coalesced = new HashMap<>();

    public NotificationMetrics(MeterRegistry meters, List<Webhook> webhooks) {
        for (Webhook webhook : webhooks) {
            delivered.put(webhook.name(), Counter.builder("dlq.notifications.delivered").tag("receiver", webhook.name())
                    .description("notifications the receiver answered with 2xx").register(meters));
            failedTries.put(webhook.name(), Counter.builder("dlq.notifications.failed_tries").tag("receiver", webhook.name())
                    .description("delivery tries that failed (no answer in time, connection refused, or not 2xx); retried with backoff unless the receiver refused the body (4xx but 408, 429)").register(meters));
            givenUp.put(webhook.name(), Counter.builder("dlq.notifications.given_up").tag("receiver", webhook.name())
                    .description("notifications given up: refused by the receiver (4xx but 408, 429) or failing past the retry window (each also logged at ERROR)").register(meters));
            coalesced.put(webhook.name(), Counter.builder("dlq.notifications.coalesced").tag("receiver", webhook.name())
                    .description("notifications over the receiver's rate limit: not sent one by one but counted in one message at their window's end").register(meters));
        }
    }

    void delivered(String receiver) {
        delivered.get(receiver).increment();
    }

    void failedTry(String receiver) {
        failedTries.get(receiver).increment();
    }

    void coalesced(String receiver, int notifications) {
        coalesced.get(receiver).increment(notifications);
    }

    void gaveUp(String receiver) {
        givenUp.get(receiver).increment();
    }
}

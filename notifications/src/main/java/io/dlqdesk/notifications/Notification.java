package io.dlqdesk.notifications;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One thing to tell the receivers. {@code id} is stable for the same occurrence (from the Axon event's identifier, or
 * the instance and the time a stall began), so noticing it again adds no delivery and receivers can deduplicate.
 * {@code incidentId} is null when the notification is not about one incident; {@code facts} keep their order.
 */
public record Notification(String id, NotificationEvent event, Instant occurredAt, String summary, String incidentId, Map<String, Object> facts) {

    public static final int MAX_ID_LENGTH = 200;

    public Notification {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(event, "event");
        Objects.requireNonNull(occurredAt, "occurredAt");
        Objects.requireNonNull(summary, "summary");
        if (id.isBlank() || id.length() > MAX_ID_LENGTH) {
            throw new IllegalArgumentException("a notification id is 1.." + MAX_ID_LENGTH + " characters");
        }
        facts = Collections.unmodifiableMap(new LinkedHashMap<>(facts));
    }
}

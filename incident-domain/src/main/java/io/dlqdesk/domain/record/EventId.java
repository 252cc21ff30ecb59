package io.dlqdesk.domain.record;

import io.dlqdesk.domain.InvalidValueException;
import java.util.Objects;

/**
 * The business event id the consumers deduplicate on (from a header or a JSON field of the value).
 * A replay must carry it unchanged, or every consumer group would process the record again.
 */
public record EventId(String value) {

    public static final int MAX_LENGTH = 256;

    public EventId {
        Objects.requireNonNull(value, "value");
        if (value.isBlank()) {
            throw new InvalidValueException("eventId must not be blank");
        }
        if (value.length() > MAX_LENGTH) {
            throw new InvalidValueException("eventId longer than " + MAX_LENGTH + " characters");
        }
        // a header decoded into control characters is not an id anyone can search for
        if (value.chars().anyMatch(Character::isISOControl)) {
            throw new InvalidValueException("eventId contains control characters");
        }
    }
}

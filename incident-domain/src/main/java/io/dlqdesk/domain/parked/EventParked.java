package io.dlqdesk.domain.parked;

import io.dlqdesk.domain.InvalidValueException;
import io.dlqdesk.domain.record.BoundedText;

import java.time.Instant;
import java.util.Objects;

/**
 * A processing group could not handle an event after {@code attempts} tries and parked it: the group's later events of
 * the same sequence wait behind it, every other sequence flows. Announced (webhook, events topic) so that an operator
 * retries or evicts it. {@code causeMessage} is cut to its bound (null when the exception had none).
 */
public record EventParked(ParkedEvent event, String causeType, String causeMessage, int attempts, Instant parkedAt) {

    public static final int MAX_CAUSE_TYPE_LENGTH = 255;
    public static final int MAX_CAUSE_MESSAGE_LENGTH = 1023;

    public EventParked {
        Objects.requireNonNull(event, "event");
        Objects.requireNonNull(causeType, "causeType");
        Objects.requireNonNull(parkedAt, "parkedAt");
        causeType = BoundedText.truncate(causeType, MAX_CAUSE_TYPE_LENGTH);
        causeMessage = causeMessage == null ? null : BoundedText.truncate(causeMessage, MAX_CAUSE_MESSAGE_LENGTH);
        if (attempts < 1) {
            throw new InvalidValueException("an event is parked after at least one attempt, was " + attempts);
        }
    }
}

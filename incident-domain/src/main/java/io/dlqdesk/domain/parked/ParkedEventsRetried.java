package io.dlqdesk.domain.parked;

import io.dlqdesk.domain.InvalidValueException;
import io.dlqdesk.domain.incident.OperatorAction;
import io.dlqdesk.domain.record.BoundedText;

import java.util.Objects;

/**
 * An admin retried parked events of {@code processingGroup}: one sequence ({@code sequenceIdentifier}), or every sequence
 * of the group (null). {@code applied} sequences were handled to their end and left the queue, {@code stillParked}
 * failed again and stay parked (one attempt more each).
 */
public record ParkedEventsRetried(String processingGroup, String sequenceIdentifier, int applied, int stillParked, OperatorAction by) {

    public ParkedEventsRetried {
        BoundedText.requireIdentifier("processingGroup", processingGroup, ParkedEvent.MAX_NAME_LENGTH);
        if (sequenceIdentifier != null) {
            BoundedText.requireIdentifier("sequenceIdentifier", sequenceIdentifier, ParkedEvent.MAX_NAME_LENGTH);
        }
        if (applied < 0 || stillParked < 0) {
            throw new InvalidValueException("counts are not negative");
        }
        Objects.requireNonNull(by, "by");
    }
}

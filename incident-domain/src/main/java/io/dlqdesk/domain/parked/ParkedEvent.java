package io.dlqdesk.domain.parked;

import io.dlqdesk.domain.record.BoundedText;

import java.util.Objects;

/**
 * An event an event processing group parked in its dead-letter queue: which group, which sequence it holds back (the
 * aggregate, or the event itself when it has none), and which event. Every text is bounded as the parked-event table
 * stores it, so no event about a parked event can be what a processor cannot store.
 */
public record ParkedEvent(String processingGroup, String sequenceIdentifier, String eventIdentifier, String eventType) {

    /** As wide as the parked-event table's and Axon's identifier columns. */
    public static final int MAX_NAME_LENGTH = 255;

    public ParkedEvent {
        BoundedText.requireIdentifier("processingGroup", processingGroup, MAX_NAME_LENGTH);
        BoundedText.requireIdentifier("sequenceIdentifier", sequenceIdentifier, MAX_NAME_LENGTH);
        BoundedText.requireIdentifier("eventIdentifier", eventIdentifier, MAX_NAME_LENGTH);
        Objects.requireNonNull(eventType, "eventType");
        eventType = BoundedText.truncate(eventType, MAX_NAME_LENGTH);
    }
}

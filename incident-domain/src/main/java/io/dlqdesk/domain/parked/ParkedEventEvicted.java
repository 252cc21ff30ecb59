package io.dlqdesk.domain.parked;

import io.dlqdesk.domain.incident.OperatorAction;

import java.util.Objects;

/**
 * An admin evicted a parked event: its processing group never applies it. The group's later events of the same
 * sequence, if any, stay parked behind the next one until they are retried.
 */
public record ParkedEventEvicted(ParkedEvent event, OperatorAction by) {

    public ParkedEventEvicted {
        Objects.requireNonNull(event, "event");
        Objects.requireNonNull(by, "by");
    }
}

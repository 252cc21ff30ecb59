package io.dlqdesk.parked;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/** How an event processor treats an event it cannot handle (docs/operations.md, "Parked events"). */
@Validated
@ConfigurationProperties("dlqdesk.parked-events")
public record ParkedEventProperties(
        /* how often an event is tried (its batch run again after the processor's back-off: 1 s, 2 s, 4 s...) before it is
           parked; a failure of the database or the broker is retried without counting */
        @Min(1) @Max(20) @DefaultValue("3") int attempts,
        /* sequences (aggregates) one processing group may hold parked; a full group stops, and readiness says so, rather
           than drop an event */
        @Min(1) @DefaultValue("10000") int maxSequences,
        /* events one parked sequence may hold: the parked one and those of its aggregate waiting behind it */
        @Min(1) @DefaultValue("10000") int maxSequenceSize) {
}

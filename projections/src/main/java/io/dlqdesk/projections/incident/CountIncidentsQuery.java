package io.dlqdesk.projections.incident;

import java.util.Objects;

/**
 * How many incidents there are per value of one dimension and per status (each incident counts
 * once, however many failures it has). Answered with a list of {@link IncidentCount}.
 */
public record CountIncidentsQuery(Dimension by) {

    public enum Dimension {
        TOPIC,
        CONSUMER_GROUP,
        STATUS,
        EXCEPTION_GROUP
    }

    public CountIncidentsQuery {
        Objects.requireNonNull(by, "by");
    }
}

package io.dlqdesk.projections.asof;

import java.time.Instant;
import java.util.Objects;

/** The incidents that existed at {@code at} and the status each had then. Answered with a list of {@link IncidentAsOf}. */
public record FindIncidentsAsOfQuery(Instant at) {

    public FindIncidentsAsOfQuery {
        Objects.requireNonNull(at, "at");
    }
}

package io.dlqdesk.projections.asof;

import io.dlqdesk.domain.PageBounds;

import java.time.Instant;
import java.util.Objects;

/**
 * The incidents that existed at {@code at} and the status each had then, newest status first, {@code size} at a
 * time, starting {@code after} a previous page's cursor (null: the first page). Answered with an {@link IncidentsAsOfPage}.
 */
public record FindIncidentsAsOfQuery(Instant at, AsOfCursor after, int size) {

    public FindIncidentsAsOfQuery {
        Objects.requireNonNull(at, "at");
        PageBounds.require(0, size);
    }
}

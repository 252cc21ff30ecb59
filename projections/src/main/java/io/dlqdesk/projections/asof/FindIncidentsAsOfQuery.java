package io.dlqdesk.projections.asof;

import io.dlqdesk.projections.Paging;

import java.time.Instant;
import java.util.Objects;

/**
 * The incidents that existed at {@code at} and the status each had then, by incident id, one page
 * at a time. Answered with an {@link IncidentsAsOfPage}.
 */
public record FindIncidentsAsOfQuery(Instant at, int page, int size) {

    public FindIncidentsAsOfQuery {
        Objects.requireNonNull(at, "at");
        Paging.requireValid(page, size);
    }
}

package io.dlqdesk.projections.history;

import io.dlqdesk.projections.Paging;

import java.time.Instant;
import java.util.Objects;

/**
 * Incidents reopened (a correlated re-failure of a closed incident) at or after {@code since}: how many reopenings, and
 * the newest {@code size} of them. Answered with a {@link ReopenedIncidents}.
 */
public record ListReopenedQuery(Instant since, int size) {

    public ListReopenedQuery {
        Objects.requireNonNull(since, "since");
        Paging.requireValid(0, size);
    }
}

package io.dlqdesk.projections.history;

import io.dlqdesk.domain.PageBounds;

import java.time.Instant;
import java.util.Objects;

/**
 * Incidents reopened (a correlated re-failure of a closed incident) at or after {@code since}: how many reopenings, and
 * the newest {@code size} of them. Answered with a {@link ReopenedIncidents}.
 */
public record ListReopenedQuery(Instant since, int size) {

    public ListReopenedQuery {
        Objects.requireNonNull(since, "since");
        PageBounds.require(0, size);
    }
}

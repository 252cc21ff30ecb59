package io.dlqdesk.projections.incident;

import io.dlqdesk.domain.api.IncidentStatus;

/** A page of the incident list, newest first; null filters match everything. Answered with an {@link IncidentPage}. */
public record ListIncidentsQuery(String topic, String consumerGroup, IncidentStatus status, int page, int size) {

    public static final int MAX_SIZE = 500;

    public ListIncidentsQuery {
        if (page < 0) {
            throw new IllegalArgumentException("page must be >= 0, was " + page);
        }
        if (size < 1 || size > MAX_SIZE) {
            throw new IllegalArgumentException("size must be between 1 and " + MAX_SIZE + ", was " + size);
        }
    }
}

package io.dlqdesk.projections.incident;

import io.dlqdesk.domain.api.IncidentStatus;

import java.time.Instant;

/**
 * A page of the incident list, newest first; null filters match everything. {@code detectedFrom} is
 * inclusive, {@code detectedTo} exclusive. Answered with an {@link IncidentPage}.
 */
public record ListIncidentsQuery(String topic, String consumerGroup, IncidentStatus status, String exceptionGroup,
                                 Instant detectedFrom, Instant detectedTo, int page, int size) {

    public static final int MAX_SIZE = 500;

    public ListIncidentsQuery {
        if (page < 0) {
            throw new IllegalArgumentException("page must be >= 0, was " + page);
        }
        if (size < 1 || size > MAX_SIZE) {
            throw new IllegalArgumentException("size must be between 1 and " + MAX_SIZE + ", was " + size);
        }
        if (exceptionGroup != null && !ExceptionGroup.ID_FORMAT.matcher(exceptionGroup).matches()) {
            throw new IllegalArgumentException("exceptionGroup must be 16 lower-case hex digits, was '" + exceptionGroup + "'");
        }
        if (detectedFrom != null && detectedTo != null && !detectedFrom.isBefore(detectedTo)) {
            throw new IllegalArgumentException("detectedFrom must be before detectedTo");
        }
    }
}

package io.dlqdesk.projections.incident;

import io.dlqdesk.domain.api.IncidentStatus;
import io.dlqdesk.projections.Paging;

import java.time.Instant;

/**
 * A page of the incident list, newest first; null filters match everything. {@code detectedFrom} is
 * inclusive, {@code detectedTo} exclusive. Answered with an {@link IncidentPage}.
 */
public record ListIncidentsQuery(String topic, String consumerGroup, IncidentStatus status, String exceptionGroup,
                                 Instant detectedFrom, Instant detectedTo, int page, int size) {

    public ListIncidentsQuery {
        Paging.requireValid(page, size);
        if (exceptionGroup != null && !ExceptionGroup.ID_FORMAT.matcher(exceptionGroup).matches()) {
            throw new IllegalArgumentException("exceptionGroup must be 16 lower-case hex digits, was '" + exceptionGroup + "'");
        }
        if (detectedFrom != null && detectedTo != null && !detectedFrom.isBefore(detectedTo)) {
            throw new IllegalArgumentException("detectedFrom must be before detectedTo");
        }
    }
}

package io.dlqdesk.projections.incident;

import io.dlqdesk.domain.InvalidValueException;
import io.dlqdesk.domain.incident.IncidentStatus;

import java.time.Instant;

/**
 * The incidents a replay job's filter selects, oldest detected first, at most {@code limit}; null filters match everything
 * ({@code detectedFrom} inclusive, {@code detectedTo} exclusive, as the list). Answered with a list of {@link IncidentSummaryView}.
 */
public record SelectIncidentsQuery(String topic, String consumerGroup, IncidentStatus status, String exceptionGroup,
                                   Instant detectedFrom, Instant detectedTo, int limit) {

    public SelectIncidentsQuery {
        if (limit < 1) {
            throw new InvalidValueException("limit must be at least 1, was " + limit);
        }
        if (exceptionGroup != null && !ExceptionGroup.ID_FORMAT.matcher(exceptionGroup).matches()) {
            throw new InvalidValueException("exceptionGroup must be 16 lower-case hex digits, was '" + exceptionGroup + "'");
        }
        if (detectedFrom != null && detectedTo != null && !detectedFrom.isBefore(detectedTo)) {
            throw new InvalidValueException("detectedFrom must be before detectedTo");
        }
    }
}

package io.dlqdesk.domain.api;

import java.time.Instant;

/**
 * A re-failure of replay {@code attempt} passed all nine checks and joined the incident. It inherits
 * the incident's {@code replayDeadline}, and it does not add to the open count: the incident does.
 * {@code headers} are the correlation headers it carried (null in events stored before they were kept).
 */
public record RetryFailureCorrelated(
        IncidentId incidentId,
        FailedRecord failure,
        int attempt,
        Instant detectedAt,
        Instant replayDeadline,
        ReplayHeaders headers) {

    public RetryFailureCorrelated(IncidentId incidentId, FailedRecord failure, int attempt, Instant detectedAt, Instant replayDeadline) {
        this(incidentId, failure, attempt, detectedAt, replayDeadline, null);
    }
}

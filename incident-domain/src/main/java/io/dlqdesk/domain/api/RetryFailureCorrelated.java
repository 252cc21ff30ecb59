package io.dlqdesk.domain.api;

import java.time.Instant;

/**
 * A re-failure of replay {@code attempt} passed all nine checks and joined the incident. It inherits
 * the incident's {@code replayDeadline}, and it does not add to the open count: the incident does.
 */
public record RetryFailureCorrelated(
        IncidentId incidentId,
        FailedRecord failure,
        int attempt,
        Instant detectedAt,
        Instant replayDeadline) {
}

package io.dlqdesk.domain.api;

import io.dlqdesk.domain.correlation.SkippedCheck;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.record.FailedRecord;
import io.dlqdesk.domain.replay.ReplayHeaders;
import java.time.Instant;
import java.util.List;

/**
 * A re-failure of replay {@code attempt} passed all nine checks and joined the incident. It inherits
 * the incident's {@code replayDeadline}, and it does not add to the open count: the incident does.
 * {@code headers} are the correlation headers it carried (null in events stored before they were kept).
 * {@code skippedChecks} are the checks that could not hold for the broker's reasons and were left out, each with why
 * (empty when all nine held, and in events stored before checks could be skipped).
 */
public record RetryFailureCorrelated(
        IncidentId incidentId,
        FailedRecord failure,
        int attempt,
        Instant detectedAt,
        Instant replayDeadline,
        ReplayHeaders headers,
        List<SkippedCheck> skippedChecks) {

    public RetryFailureCorrelated {
        skippedChecks = skippedChecks == null ? List.of() : List.copyOf(skippedChecks);
    }

    public RetryFailureCorrelated(IncidentId incidentId, FailedRecord failure, int attempt, Instant detectedAt, Instant replayDeadline,
                                  ReplayHeaders headers) {
        this(incidentId, failure, attempt, detectedAt, replayDeadline, headers, List.of());
    }

    public RetryFailureCorrelated(IncidentId incidentId, FailedRecord failure, int attempt, Instant detectedAt, Instant replayDeadline) {
        this(incidentId, failure, attempt, detectedAt, replayDeadline, null);
    }
}

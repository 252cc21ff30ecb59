package io.dlqdesk.domain.api;

import java.time.Instant;
import java.util.List;

/**
 * An incident was opened for a failure seen for the first time. {@code replayDeadline} (original
 * timestamp + replay window) is computed once, here; null when the original timestamp is unknown.
 * {@code correlationMismatches} is non-empty when this is a re-failure that failed correlation.
 */
public record IncidentOpened(
        IncidentId incidentId,
        FailedRecord failure,
        Instant detectedAt,
        Instant replayDeadline,
        List<CorrelationMismatch> correlationMismatches) {

    public IncidentOpened {
        // null from a payload stored before the component existed
        correlationMismatches = correlationMismatches == null ? List.of() : List.copyOf(correlationMismatches);
    }

    /** The root failure's key (derived, not a record component: not serialized twice). */
    public FailureKey failureKey() {
        return failure.failureKey();
    }
}

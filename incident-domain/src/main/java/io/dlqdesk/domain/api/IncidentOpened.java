package io.dlqdesk.domain.api;

import io.dlqdesk.domain.correlation.CorrelationMismatch;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.record.FailedRecord;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.domain.replay.ReplayHeaders;
import java.time.Instant;
import java.util.List;

/**
 * An incident was opened for a failure seen for the first time. {@code replayDeadline} (original
 * timestamp + replay window) is computed once, here; null when the original timestamp is unknown.
 * {@code correlationMismatches} is non-empty when this is a re-failure that failed correlation (or
 * a record whose failure key was taken), and {@code replayHeaders} are the correlation headers the
 * record carried (null when it carried none, and in events stored before they were kept).
 */
public record IncidentOpened(
        IncidentId incidentId,
        FailedRecord failure,
        Instant detectedAt,
        Instant replayDeadline,
        List<CorrelationMismatch> correlationMismatches,
        ReplayHeaders replayHeaders) {

    public IncidentOpened {
        // null from a payload stored before the component existed
        correlationMismatches = correlationMismatches == null ? List.of() : List.copyOf(correlationMismatches);
    }

    public IncidentOpened(IncidentId incidentId, FailedRecord failure, Instant detectedAt, Instant replayDeadline,
                          List<CorrelationMismatch> correlationMismatches) {
        this(incidentId, failure, detectedAt, replayDeadline, correlationMismatches, null);
    }

    /** The root failure's key (derived, not a record component: not serialized twice). */
    public FailureKey failureKey() {
        return failure.failureKey();
    }
}

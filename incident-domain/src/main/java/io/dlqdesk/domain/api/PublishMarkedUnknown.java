package io.dlqdesk.domain.api;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.OperatorAction;
import io.dlqdesk.domain.record.FailureKey;

/**
 * An operator marked a REQUESTED attempt PUBLISH_UNKNOWN (one-way: no result and no replay from it later).
 *
 * @param endOffsetAtDecision the end offset (high-water mark) of the attempt's original topic-partition read
 *                            when it was marked: a replay that went out lies below it; null when it could not
 *                            be read, and in events stored before it was recorded (read as "unknown")
 */
public record PublishMarkedUnknown(IncidentId incidentId, int attempt, FailureKey claimedFailure, OperatorAction markedBy,
                                   Long endOffsetAtDecision) {

    /** Without an end offset: unknown. */
    public PublishMarkedUnknown(IncidentId incidentId, int attempt, FailureKey claimedFailure, OperatorAction markedBy) {
        this(incidentId, attempt, claimedFailure, markedBy, null);
    }

    /** The replay saga's association key; derived, so not part of the stored form. */
    public String replayId() {
        return incidentId.replayId(attempt);
    }
}

package io.dlqdesk.domain.api;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.domain.replay.PublishResult;

/** An attempt's publish status moved from REQUESTED to PUBLISHED or PUBLISH_FAILED. */
public record PublishResultRecorded(IncidentId incidentId, int attempt, FailureKey claimedFailure, PublishResult result) {

    /** The replay saga's association key; derived, so not part of the stored form. */
    public String replayId() {
        return incidentId.replayId(attempt);
    }
}

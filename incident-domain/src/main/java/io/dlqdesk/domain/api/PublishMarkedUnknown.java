package io.dlqdesk.domain.api;

/** An operator marked a REQUESTED attempt PUBLISH_UNKNOWN (one-way: no result and no replay from it later). */
public record PublishMarkedUnknown(IncidentId incidentId, int attempt, FailureKey claimedFailure, OperatorAction markedBy) {

    /** The replay saga's association key; derived, so not part of the stored form. */
    public String replayId() {
        return incidentId.replayId(attempt);
    }
}

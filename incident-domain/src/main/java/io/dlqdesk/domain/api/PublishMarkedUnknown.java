package io.dlqdesk.domain.api;

/** An operator marked a REQUESTED attempt PUBLISH_UNKNOWN (one-way: no result and no replay from it later). */
public record PublishMarkedUnknown(IncidentId incidentId, int attempt, FailureKey claimedFailure, OperatorAction markedBy) {
}

package io.dlqdesk.domain.api;

/** See {@link DiscardIncidentCommand}; {@code action} says who, why and when. */
public record IncidentDiscarded(IncidentId incidentId, OperatorAction action) {
}

package io.dlqdesk.domain.api;

/** See {@link ResolveIncidentCommand}; {@code action} says who, why and when. */
public record IncidentResolved(IncidentId incidentId, OperatorAction action) {
}

package io.dlqdesk.domain.api;

/** See {@link AcknowledgeIncidentCommand}; {@code action} says who, why and when. */
public record IncidentAcknowledged(IncidentId incidentId, OperatorAction action) {
}

package io.dlqdesk.domain.api;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.OperatorAction;

/** See {@link AcknowledgeIncidentCommand}; {@code action} says who, why and when. */
public record IncidentAcknowledged(IncidentId incidentId, OperatorAction action) {
}

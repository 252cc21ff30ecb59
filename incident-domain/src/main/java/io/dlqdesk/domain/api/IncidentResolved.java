package io.dlqdesk.domain.api;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.OperatorAction;

/** See {@link ResolveIncidentCommand}; {@code action} says who, why and when. */
public record IncidentResolved(IncidentId incidentId, OperatorAction action) {
}

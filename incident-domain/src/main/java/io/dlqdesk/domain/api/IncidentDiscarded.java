package io.dlqdesk.domain.api;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.OperatorAction;

/** See {@link DiscardIncidentCommand}; {@code action} says who, why and when. */
public record IncidentDiscarded(IncidentId incidentId, OperatorAction action) {
}

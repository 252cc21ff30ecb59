package io.dlqdesk.projections.edit;

import io.dlqdesk.domain.incident.IncidentId;

/** Every edit of an incident, oldest first. */
public record FindReplayEditsQuery(IncidentId incidentId) {
}

package io.dlqdesk.projections.incident;

import io.dlqdesk.domain.incident.IncidentStatus;

/** The number of incidents with this value of the counted dimension and this status. */
public record IncidentCount(String value, IncidentStatus status, long incidents) {
}

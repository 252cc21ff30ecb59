package io.dlqdesk.projections.incident;

import io.dlqdesk.domain.incident.IncidentId;

/** Answered with an {@code Optional<IncidentSummaryView>}. */
public record FindIncidentSummaryQuery(IncidentId incidentId) {
}

package io.dlqdesk.projections.history;

import io.dlqdesk.domain.incident.IncidentId;

import java.util.Objects;

/** Every change of one incident, oldest first. Answered with a list of {@link HistoryEntry}; empty for an unknown id. */
public record FindIncidentHistoryQuery(IncidentId incidentId) {

    public FindIncidentHistoryQuery {
        Objects.requireNonNull(incidentId, "incidentId");
    }
}

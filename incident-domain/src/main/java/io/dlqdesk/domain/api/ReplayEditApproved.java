package io.dlqdesk.domain.api;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.OperatorAction;

/** A second person approved the incident's edit {@code edit}: a replay may now publish it. */
public record ReplayEditApproved(IncidentId incidentId, int edit, OperatorAction approvedBy) {
}

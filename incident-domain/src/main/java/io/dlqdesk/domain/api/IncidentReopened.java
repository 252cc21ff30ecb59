package io.dlqdesk.domain.api;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.IncidentStatus;
import io.dlqdesk.domain.record.FailureKey;
import java.time.Instant;

/**
 * A correlated re-failure arrived after the incident was closed: the record is still failing, so
 * the incident is OPEN again. The only way the system undoes an operator's close, hence an alert.
 */
public record IncidentReopened(IncidentId incidentId, FailureKey reopenedBy, IncidentStatus previousStatus, Instant reopenedAt) {
}

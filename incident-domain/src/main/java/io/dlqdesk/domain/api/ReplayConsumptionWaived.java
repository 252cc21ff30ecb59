package io.dlqdesk.domain.api;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.OperatorAction;

/**
 * The rollback check no longer waits for attempt {@code attempt}'s replay to be consumed: an admin said why. Shown in every
 * rollback answer that leaves it out.
 */
public record ReplayConsumptionWaived(IncidentId incidentId, int attempt, OperatorAction waivedBy) {
}

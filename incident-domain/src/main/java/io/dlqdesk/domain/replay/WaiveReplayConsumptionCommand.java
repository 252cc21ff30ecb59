package io.dlqdesk.domain.replay;

import io.dlqdesk.domain.incident.CommandArguments;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.OperatorAction;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

import java.util.Objects;

/**
 * An admin stops the rollback check from waiting for a decided replay to be consumed (its target group was retired, say),
 * with a reason. The rollback check has no horizon: without this, a replay nobody consumes holds it NOT_READY for ever.
 */
public record WaiveReplayConsumptionCommand(@TargetAggregateIdentifier IncidentId incidentId, int attempt, OperatorAction waivedBy) {

    public WaiveReplayConsumptionCommand {
        Objects.requireNonNull(incidentId, "incidentId");
        CommandArguments.requireAttempt(attempt);
        Objects.requireNonNull(waivedBy, "waivedBy");
    }
}

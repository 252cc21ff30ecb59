package io.dlqdesk.domain.edit;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.OperatorAction;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

import java.util.Objects;

/** A second person approves the incident's edit {@code edit} (four-eyes: never its proposer); only then may it be replayed. */
public record ApproveReplayEditCommand(@TargetAggregateIdentifier IncidentId incidentId, int edit, OperatorAction approvedBy) {

    public ApproveReplayEditCommand {
        Objects.requireNonNull(incidentId, "incidentId");
        Objects.requireNonNull(approvedBy, "approvedBy");
    }
}

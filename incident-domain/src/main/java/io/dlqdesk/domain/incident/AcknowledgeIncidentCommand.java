package io.dlqdesk.domain.incident;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

import java.util.Objects;

/** An operator takes the incident (OPEN → ACKED). */
public record AcknowledgeIncidentCommand(@TargetAggregateIdentifier IncidentId incidentId, OperatorAction action) {

    public AcknowledgeIncidentCommand {
        Objects.requireNonNull(incidentId, "incidentId");
        Objects.requireNonNull(action, "action");
    }
}

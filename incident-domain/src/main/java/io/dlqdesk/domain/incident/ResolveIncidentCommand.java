package io.dlqdesk.domain.incident;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

import java.util.Objects;

/** An operator closes the incident as fixed (ACKED → RESOLVED). */
public record ResolveIncidentCommand(@TargetAggregateIdentifier IncidentId incidentId, OperatorAction action) {

    public ResolveIncidentCommand {
        Objects.requireNonNull(incidentId, "incidentId");
        Objects.requireNonNull(action, "action");
    }
}

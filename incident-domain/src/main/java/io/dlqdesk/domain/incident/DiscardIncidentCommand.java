package io.dlqdesk.domain.incident;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

import java.util.Objects;

/** An operator closes the incident as not worth fixing (ACKED → DISCARDED). */
public record DiscardIncidentCommand(@TargetAggregateIdentifier IncidentId incidentId, OperatorAction action) {

    public DiscardIncidentCommand {
        Objects.requireNonNull(incidentId, "incidentId");
        Objects.requireNonNull(action, "action");
    }
}

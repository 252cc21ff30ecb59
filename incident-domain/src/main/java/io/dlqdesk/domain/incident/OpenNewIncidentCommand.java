package io.dlqdesk.domain.incident;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

import java.util.Objects;

/**
 * {@link OpenIncidentCommand} for an id the caller has just found absent from the event store: the
 * incident is created without loading anything. Ingest's batch path uses it; if another writer created
 * the incident in between, the append fails on the store's unique (aggregate, sequence) key and the
 * caller writes the record again with {@link OpenIncidentCommand}, which then finds the incident.
 */
public record OpenNewIncidentCommand(OpenIncidentCommand open) {

    public OpenNewIncidentCommand {
        Objects.requireNonNull(open, "open");
    }

    @TargetAggregateIdentifier
    public IncidentId incidentId() {
        return open.incidentId();
    }
}

package io.dlqdesk.domain.api;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

import java.util.Objects;

/**
 * An operator ends an attempt stuck in REQUESTED whose outbox row is gone. The application must have
 * checked that the row is really absent ({@code outboxRowConfirmedAbsent}); a row that still exists
 * will get its result the normal way, and two paths deciding one result is what this forbids.
 */
public record MarkPublishUnknownCommand(
        @TargetAggregateIdentifier IncidentId incidentId,
        int attempt,
        boolean outboxRowConfirmedAbsent,
        OperatorAction markedBy) {

    public MarkPublishUnknownCommand {
        Objects.requireNonNull(incidentId, "incidentId");
        CommandArguments.requireAttempt(attempt);
        Objects.requireNonNull(markedBy, "markedBy");
    }
}

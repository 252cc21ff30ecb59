package io.dlqdesk.domain.replay;

import io.dlqdesk.domain.InvalidValueException;
import io.dlqdesk.domain.incident.CommandArguments;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.OperatorAction;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

import java.util.Objects;

/**
 * An operator ends an attempt stuck in REQUESTED whose outbox row is gone. The application must have
 * checked that the row is really absent ({@code outboxRowConfirmedAbsent}); a row that still exists
 * will get its result the normal way, and two paths deciding one result is what this forbids.
 *
 * @param endOffsetAtDecision the end offset of the attempt's original topic-partition, read after the row's
 *                            place was taken (so no replay of it can come later); null when it could not be read
 */
public record MarkPublishUnknownCommand(
        @TargetAggregateIdentifier IncidentId incidentId,
        int attempt,
        boolean outboxRowConfirmedAbsent,
        OperatorAction markedBy,
        Long endOffsetAtDecision) {

    public MarkPublishUnknownCommand {
        Objects.requireNonNull(incidentId, "incidentId");
        CommandArguments.requireAttempt(attempt);
        Objects.requireNonNull(markedBy, "markedBy");
        if (endOffsetAtDecision != null && endOffsetAtDecision < 0) {
            throw new InvalidValueException("an end offset is not negative, was " + endOffsetAtDecision);
        }
    }

    /** Without an end offset: the rollback check will treat the attempt as never consumed. */
    public MarkPublishUnknownCommand(IncidentId incidentId, int attempt, boolean outboxRowConfirmedAbsent, OperatorAction markedBy) {
        this(incidentId, attempt, outboxRowConfirmedAbsent, markedBy, null);
    }
}

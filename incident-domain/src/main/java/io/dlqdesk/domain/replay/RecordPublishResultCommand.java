package io.dlqdesk.domain.replay;

import io.dlqdesk.domain.incident.CommandArguments;
import io.dlqdesk.domain.incident.IncidentId;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

import java.util.Objects;

/** The replay publisher reports how publishing an attempt ended. Recording the same result again changes nothing. */
public record RecordPublishResultCommand(@TargetAggregateIdentifier IncidentId incidentId, int attempt, PublishResult result) {

    public RecordPublishResultCommand {
        Objects.requireNonNull(incidentId, "incidentId");
        CommandArguments.requireAttempt(attempt);
        Objects.requireNonNull(result, "result");
    }
}

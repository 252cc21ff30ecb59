package io.dlqdesk.domain.job;

import io.dlqdesk.domain.incident.CommandArguments;
import io.dlqdesk.domain.incident.IncidentId;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

import java.time.Instant;
import java.util.Objects;

/** A re-failure was correlated to one of the job's attempts: the replay reached the consumer and failed again. */
public record RecordJobRefailureCommand(@TargetAggregateIdentifier ReplayJobId jobId, IncidentId incidentId, int attempt, Instant at) {

    public RecordJobRefailureCommand {
        Objects.requireNonNull(jobId, "jobId");
        Objects.requireNonNull(incidentId, "incidentId");
        Objects.requireNonNull(at, "at");
        CommandArguments.requireAttempt(attempt);
    }
}

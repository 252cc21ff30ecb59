package io.dlqdesk.domain.job;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.replay.ReplayOutcome;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

import java.util.Objects;

/** The runner asked an incident of the job for a replay (exactly as a single replay is asked) and this is what it answered. */
public record RecordJobReplayCommand(@TargetAggregateIdentifier ReplayJobId jobId, IncidentId incidentId, ReplayOutcome outcome) {

    public RecordJobReplayCommand {
        Objects.requireNonNull(jobId, "jobId");
        Objects.requireNonNull(incidentId, "incidentId");
        Objects.requireNonNull(outcome, "outcome");
    }
}

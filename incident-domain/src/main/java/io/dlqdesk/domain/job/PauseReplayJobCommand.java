package io.dlqdesk.domain.job;

import io.dlqdesk.domain.incident.OperatorAction;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

import java.util.Objects;

/** An operator's pause of a replay job, with who and why. */
public record PauseReplayJobCommand(@TargetAggregateIdentifier ReplayJobId jobId, OperatorAction action) {

    public PauseReplayJobCommand {
        Objects.requireNonNull(jobId, "jobId");
        Objects.requireNonNull(action, "action");
    }
}

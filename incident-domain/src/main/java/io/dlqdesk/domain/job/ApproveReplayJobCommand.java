package io.dlqdesk.domain.job;

import io.dlqdesk.domain.incident.OperatorAction;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

import java.util.Objects;

/** A second person's approval of a job that waits for one (four-eyes), with who and why. */
public record ApproveReplayJobCommand(@TargetAggregateIdentifier ReplayJobId jobId, OperatorAction action) {

    public ApproveReplayJobCommand {
        Objects.requireNonNull(jobId, "jobId");
        Objects.requireNonNull(action, "action");
    }
}

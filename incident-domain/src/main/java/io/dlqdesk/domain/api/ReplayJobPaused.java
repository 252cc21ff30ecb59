package io.dlqdesk.domain.api;

import io.dlqdesk.domain.incident.OperatorAction;
import io.dlqdesk.domain.job.ReplayJobId;
import io.dlqdesk.domain.job.ReplayJobPauseReason;

/** The job requests nothing until resumed; {@code by} is the operator, or the job itself for CANARY and REFAILURE_RATE. */
public record ReplayJobPaused(ReplayJobId jobId, ReplayJobPauseReason reason, OperatorAction by) {
}

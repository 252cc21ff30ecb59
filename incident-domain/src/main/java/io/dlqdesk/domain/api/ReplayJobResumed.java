package io.dlqdesk.domain.api;

import io.dlqdesk.domain.incident.OperatorAction;
import io.dlqdesk.domain.job.ReplayJobId;

/** An operator resumed the job. */
public record ReplayJobResumed(ReplayJobId jobId, OperatorAction by) {
}

package io.dlqdesk.domain.api;

import io.dlqdesk.domain.incident.OperatorAction;
import io.dlqdesk.domain.job.ReplayJobId;

/** A second person approved a job that waited for approval; it runs from here on. */
public record ReplayJobApproved(ReplayJobId jobId, OperatorAction by) {
}

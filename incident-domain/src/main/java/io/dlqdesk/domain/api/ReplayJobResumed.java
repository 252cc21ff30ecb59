package io.dlqdesk.domain.api;

/** An operator resumed the job. */
public record ReplayJobResumed(ReplayJobId jobId, OperatorAction by) {
}

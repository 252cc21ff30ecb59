package io.dlqdesk.domain.api;

/** No incident of the job is requested after this; replays already requested still finish. */
public record ReplayJobCancelled(ReplayJobId jobId, OperatorAction by) {
}

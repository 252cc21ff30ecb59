package io.dlqdesk.domain.api;

/** Every incident of the manifest was requested or refused. */
public record ReplayJobCompleted(ReplayJobId jobId) {
}

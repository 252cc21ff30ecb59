package io.dlqdesk.domain.api;

import io.dlqdesk.domain.job.ReplayJobId;

/** Every incident of the manifest was requested or refused. */
public record ReplayJobCompleted(ReplayJobId jobId) {
}

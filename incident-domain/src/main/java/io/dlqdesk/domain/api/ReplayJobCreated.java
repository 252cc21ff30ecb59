package io.dlqdesk.domain.api;

import java.util.List;

/** A replay job was created; its manifest has no duplicates and is requested in this order. */
public record ReplayJobCreated(ReplayJobId jobId, String selection, List<IncidentId> manifest, ReplayJobLimits limits,
                               OperatorAction createdBy) {
}

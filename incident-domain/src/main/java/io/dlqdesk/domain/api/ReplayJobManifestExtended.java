package io.dlqdesk.domain.api;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.job.ReplayJobId;
import java.util.List;

/** More of a new job's manifest ({@link ReplayJobCreated}): {@code incidents} are at positions {@code from}, {@code from + 1}, … */
public record ReplayJobManifestExtended(ReplayJobId jobId, int from, List<IncidentId> incidents) {
}

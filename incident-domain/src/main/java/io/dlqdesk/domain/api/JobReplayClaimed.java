package io.dlqdesk.domain.api;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.job.ReplayJobId;
import java.time.Instant;

/** The runner took this incident of the job and asks it for its replay next; {@code at} bounds when that request was made. */
public record JobReplayClaimed(ReplayJobId jobId, IncidentId incidentId, Instant at) {
}

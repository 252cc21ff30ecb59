package io.dlqdesk.domain.api;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.job.ReplayJobId;

/** One of the job's attempts came back as a correlated re-failure (counted once per attempt). */
public record JobReplayRefailed(ReplayJobId jobId, IncidentId incidentId, int attempt) {
}

package io.dlqdesk.domain.api;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.job.ReplayJobId;
import io.dlqdesk.domain.replay.PublishStatus;

/** One of the job's attempts was decided. */
public record JobReplayDecided(ReplayJobId jobId, IncidentId incidentId, int attempt, PublishStatus status) {
}

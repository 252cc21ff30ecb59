package io.dlqdesk.domain.api;

/** One of the job's attempts was decided. */
public record JobReplayDecided(ReplayJobId jobId, IncidentId incidentId, int attempt, PublishStatus status) {
}

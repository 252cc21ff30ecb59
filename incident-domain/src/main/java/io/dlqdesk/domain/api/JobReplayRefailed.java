package io.dlqdesk.domain.api;

/** One of the job's attempts came back as a correlated re-failure (counted once per attempt). */
public record JobReplayRefailed(ReplayJobId jobId, IncidentId incidentId, int attempt) {
}

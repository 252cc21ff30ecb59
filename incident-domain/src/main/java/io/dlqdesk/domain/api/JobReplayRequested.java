package io.dlqdesk.domain.api;

/** An incident of the job accepted its replay as {@code attempt}. */
public record JobReplayRequested(ReplayJobId jobId, IncidentId incidentId, int attempt) {
}

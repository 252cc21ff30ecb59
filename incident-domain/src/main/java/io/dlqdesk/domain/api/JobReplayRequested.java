package io.dlqdesk.domain.api;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.job.ReplayJobId;

/** An incident of the job accepted its replay as {@code attempt}. */
public record JobReplayRequested(ReplayJobId jobId, IncidentId incidentId, int attempt) {
}

package io.dlqdesk.domain.api;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.job.ReplayJobId;
import io.dlqdesk.domain.replay.ReplayRefusal;
import java.util.List;

/** An incident of the job refused its replay, for these conditions (also recorded on the incident). */
public record JobReplayRefused(ReplayJobId jobId, IncidentId incidentId, List<ReplayRefusal> refusals) {
}

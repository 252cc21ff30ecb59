package io.dlqdesk.domain.api;

import java.util.List;

/** An incident of the job refused its replay, for these conditions (also recorded on the incident). */
public record JobReplayRefused(ReplayJobId jobId, IncidentId incidentId, List<ReplayRefusal> refusals) {
}

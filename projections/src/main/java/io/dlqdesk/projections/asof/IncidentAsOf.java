package io.dlqdesk.projections.asof;

import io.dlqdesk.domain.incident.IncidentStatus;

import java.time.Instant;

/** One incident as it stood at the asked instant: where, which group, its status then and since when. */
public record IncidentAsOf(String incidentId, String topic, int partition, long offset, String consumerGroup, IncidentStatus status,
                           Instant statusSince) {
}

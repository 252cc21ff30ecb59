package io.dlqdesk.projections.incident;

import io.dlqdesk.domain.api.IncidentStatus;

import java.time.Instant;

/** What the incident list shows of one incident. */
public record IncidentSummaryView(String incidentId, String topic, int partition, long offset, String consumerGroup,
                                  IncidentStatus status, Instant detectedAt) {
}

package io.dlqdesk.projections.incident;

import io.dlqdesk.domain.api.IncidentStatus;
import io.dlqdesk.domain.api.PublishStatus;

import java.time.Instant;

/**
 * What the incident list shows of one incident: where its record is, the group that failed, its
 * status, its exception group, how many failures (the root plus correlated re-failures) and replay
 * attempts it has, and the latest attempt's publish status (null before the first).
 */
public record IncidentSummaryView(String incidentId, String topic, int partition, long offset, String consumerGroup,
                                  IncidentStatus status, Instant detectedAt, String exceptionClass, String exceptionGroup,
                                  String exceptionFingerprint, int failureCount, int attemptCount, PublishStatus lastPublishStatus) {
}

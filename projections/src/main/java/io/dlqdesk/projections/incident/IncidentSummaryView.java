package io.dlqdesk.projections.incident;

import io.dlqdesk.domain.correlation.CorrelationMismatch;
import io.dlqdesk.domain.incident.IncidentStatus;
import io.dlqdesk.domain.record.DlqDialect;
import io.dlqdesk.domain.replay.PublishStatus;

import java.time.Instant;
import java.util.List;

/**
 * What the incident list shows of one incident: where its record is, the group that failed, its
 * status, its exception group, how many failures (the root plus correlated re-failures) and replay
 * attempts it has, and the latest attempt's publish status (null before the first).
 * {@code duplicateDeliveries} counts DLQ records that repeated one of its failures exactly (last at
 * {@code lastDuplicateAt}); {@code correlationMismatches} says why a record that named another
 * incident, or claimed a failure key already taken, is an incident of its own; when
 * {@code originalLocationKnown} is false, topic/partition/offset are the DLQ record's own location
 * and {@code locationUnknownReason} says which header was missing or undecodable. {@code eventId} is the root
 * failure's (null when it carried none); {@code dlqTopic}/{@code dlqPartition}/{@code dlqOffset} are where the root
 * failure's DLQ record is (the console reads the record, its headers and stack trace from there); {@code dlqDialect} is
 * whose headers it was read by, which says what the desk could not know about it (docs/dlq-dialects.md).
 */
public record IncidentSummaryView(String incidentId, String topic, int partition, long offset, String consumerGroup,
                                  IncidentStatus status, Instant detectedAt, String exceptionClass, String exceptionGroup,
                                  String exceptionFingerprint, int failureCount, int attemptCount, PublishStatus lastPublishStatus,
                                  int duplicateDeliveries, Instant lastDuplicateAt, List<CorrelationMismatch> correlationMismatches,
                                  boolean originalLocationKnown, String locationUnknownReason, String eventId, String dlqTopic,
                                  int dlqPartition, long dlqOffset, DlqDialect dlqDialect) {
}

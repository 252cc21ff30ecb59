package io.dlqdesk.projections.incident;

import io.dlqdesk.domain.api.CorrelationMismatch;
import io.dlqdesk.domain.api.IncidentStatus;
import io.dlqdesk.domain.api.PublishStatus;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;

/** One row per incident: the list view, as queries read it (batches write it through {@link IncidentSummaryTable}). */
@Entity
@Table(name = "incident_summary")
class IncidentSummaryEntity {

    @Id
    @Column(name = "incident_id", length = 36)
    private String incidentId;

    @Column(name = "topic", nullable = false, length = 249)
    private String topic;

    @Column(name = "partition_no", nullable = false)
    private int partition;

    @Column(name = "record_offset", nullable = false)
    private long offset;

    @Column(name = "consumer_group", nullable = false, length = 255)
    private String consumerGroup;

    @Enumerated(EnumType.STRING)
    @JdbcTypeCode(SqlTypes.VARCHAR) // a plain column: a new status needs no DDL
    @Column(name = "status", nullable = false, length = 16)
    private IncidentStatus status;

    @Column(name = "detected_at", nullable = false)
    private Instant detectedAt;

    @Column(name = "exception_class", nullable = false, length = 512)
    private String exceptionClass;

    @Column(name = "exception_group", nullable = false, length = 16)
    private String exceptionGroup;

    @Column(name = "exception_fingerprint", nullable = false, length = 500)
    private String exceptionFingerprint;

    @Column(name = "failure_count", nullable = false)
    private int failureCount;

    @Column(name = "attempt_count", nullable = false)
    private int attemptCount;

    @Enumerated(EnumType.STRING)
    @JdbcTypeCode(SqlTypes.VARCHAR)
    @Column(name = "last_publish_status", length = 16)
    private PublishStatus lastPublishStatus;

    @Column(name = "duplicate_deliveries", nullable = false)
    private int duplicateDeliveries;

    @Column(name = "last_duplicate_at")
    private Instant lastDuplicateAt;

    /** Comma-separated codes; null when the incident is not a record that failed correlation. */
    @Column(name = "correlation_mismatches", length = 512)
    private String correlationMismatches;

    @Column(name = "location_unknown_reason", length = 500)
    private String locationUnknownReason;

    @Column(name = "event_id", length = 256)
    private String eventId;

    /** SHA-256 of the root failure's key bytes, lower-case hex; searched, never shown. */
    @Column(name = "key_sha256", length = 64)
    private String keySha256;

    @Column(name = "dlq_topic", length = 249)
    private String dlqTopic;

    @Column(name = "dlq_partition")
    private int dlqPartition;

    @Column(name = "dlq_offset")
    private long dlqOffset;

    protected IncidentSummaryEntity() {
        // for JPA
    }

    IncidentSummaryView toView() {
        return new IncidentSummaryView(incidentId, topic, partition, offset, consumerGroup, status, detectedAt, exceptionClass,
                exceptionGroup, exceptionFingerprint, failureCount, attemptCount, lastPublishStatus, duplicateDeliveries, lastDuplicateAt,
                correlationMismatches == null ? List.of()
                        : Arrays.stream(correlationMismatches.split(",")).map(CorrelationMismatch::valueOf).toList(),
                locationUnknownReason == null, locationUnknownReason, eventId, dlqTopic, dlqPartition, dlqOffset);
    }
}

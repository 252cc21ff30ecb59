package io.dlqdesk.projections.incident;

import io.dlqdesk.domain.api.IncidentOpened;
import io.dlqdesk.domain.correlation.CorrelationMismatch;
import io.dlqdesk.domain.incident.IncidentStatus;
import io.dlqdesk.domain.record.DlqDialect;
import io.dlqdesk.domain.replay.PublishStatus;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * One incident_summary row: the one mapping of that table, for the batches that change it and the queries that read it.
 * Times are kept as the table keeps them: UTC.
 */
final class SummaryRow {

    static final String COLUMNS = "incident_id, topic, partition_no, record_offset, consumer_group, status, detected_at, exception_class,"
            + " exception_group, exception_fingerprint, failure_count, attempt_count, last_publish_status, duplicate_deliveries,"
            + " last_duplicate_at, correlation_mismatches, location_unknown_reason, event_id, key_sha256, dlq_topic, dlq_partition, dlq_offset,"
            + " dlq_dialect";

    private final String incidentId;
    private final String topic;
    private final int partition;
    private final long offset;
    private final String consumerGroup;
    private IncidentStatus status;
    private final LocalDateTime detectedAt;
    private final ExceptionGroup group;
    private int failureCount;
    private int attemptCount;
    private PublishStatus lastPublishStatus;
    private int duplicateDeliveries;
    private LocalDateTime lastDuplicateAt;
    /** Comma-separated codes; null when the incident is not a record that failed correlation. */
    private final String correlationMismatches;
    private final String locationUnknownReason;
    /** The root failure's eventId (null when it had none) and SHA-256 of its key bytes (null without a key): both searched. */
    private final String eventId;
    private final String keySha256;
    /** Where the root failure's DLQ record is: the console reads the record from there. */
    private final String dlqTopic;
    private final int dlqPartition;
    private final long dlqOffset;
    /** Whose headers the root failure was read by. */
    private final DlqDialect dlqDialect;

    private SummaryRow(String incidentId, String topic, int partition, long offset, String consumerGroup, IncidentStatus status,
                       LocalDateTime detectedAt, ExceptionGroup group, int failureCount, int attemptCount, PublishStatus lastPublishStatus,
                       int duplicateDeliveries, LocalDateTime lastDuplicateAt, String correlationMismatches, String locationUnknownReason,
                       String eventId, String keySha256, String dlqTopic, int dlqPartition, long dlqOffset, DlqDialect dlqDialect) {
        this.incidentId = incidentId;
        this.topic = topic;
        this.partition = partition;
        this.offset = offset;
        this.consumerGroup = consumerGroup;
        this.status = status;
        this.detectedAt = detectedAt;
        this.group = group;
        this.failureCount = failureCount;
        this.attemptCount = attemptCount;
        this.lastPublishStatus = lastPublishStatus;
        this.duplicateDeliveries = duplicateDeliveries;
        this.lastDuplicateAt = lastDuplicateAt;
        this.correlationMismatches = correlationMismatches;
        this.locationUnknownReason = locationUnknownReason;
        this.eventId = eventId;
        this.keySha256 = keySha256;
        this.dlqTopic = dlqTopic;
        this.dlqPartition = dlqPartition;
        this.dlqOffset = dlqOffset;
        this.dlqDialect = dlqDialect;
    }

    static SummaryRow opened(IncidentOpened event) {
        var key = event.failureKey();
        return new SummaryRow(event.incidentId().value(), key.topic(), key.partition(), key.offset(), key.consumerGroup(),
                IncidentStatus.OPEN, utc(event.detectedAt()), ExceptionGroup.of(event.failure().exception()), 1, 0, null, 0, null,
                event.correlationMismatches().isEmpty() ? null
                        : event.correlationMismatches().stream().map(CorrelationMismatch::name).collect(Collectors.joining(",")),
                event.failure().locationUnknownReason(), event.failure().eventId() == null ? null : event.failure().eventId().value(),
                KeyHash.of(event.failure().key()), event.failure().dlqLocation().topic(), event.failure().dlqLocation().partition(),
                event.failure().dlqLocation().offset(), event.failure().dialect());
    }

    static SummaryRow read(ResultSet row, int number) throws SQLException {
        String lastPublishStatus = row.getString("last_publish_status");
        return new SummaryRow(row.getString("incident_id"), row.getString("topic"), row.getInt("partition_no"), row.getLong("record_offset"),
                row.getString("consumer_group"), IncidentStatus.valueOf(row.getString("status")),
                row.getObject("detected_at", LocalDateTime.class), new ExceptionGroup(row.getString("exception_group"),
                row.getString("exception_class"), row.getString("exception_fingerprint")), row.getInt("failure_count"),
                row.getInt("attempt_count"), lastPublishStatus == null ? null : PublishStatus.valueOf(lastPublishStatus),
                row.getInt("duplicate_deliveries"), row.getObject("last_duplicate_at", LocalDateTime.class),
                row.getString("correlation_mismatches"), row.getString("location_unknown_reason"), row.getString("event_id"),
                row.getString("key_sha256"), row.getString("dlq_topic"), row.getInt("dlq_partition"), row.getLong("dlq_offset"),
                DlqDialect.valueOf(row.getString("dlq_dialect")));
    }

    /** In the order of {@link #COLUMNS}. */
    Object[] values() {
        return new Object[] {incidentId, topic, partition, offset, consumerGroup, status.name(), detectedAt, group.exceptionClass(),
                group.id(), group.fingerprint(), failureCount, attemptCount, lastPublishStatus == null ? null : lastPublishStatus.name(),
                duplicateDeliveries, lastDuplicateAt, correlationMismatches, locationUnknownReason, eventId, keySha256, dlqTopic, dlqPartition,
                dlqOffset, dlqDialect.name()};
    }

    IncidentSummaryView toView() {
        return new IncidentSummaryView(incidentId, topic, partition, offset, consumerGroup, status, instant(detectedAt), group.exceptionClass(),
                group.id(), group.fingerprint(), failureCount, attemptCount, lastPublishStatus, duplicateDeliveries, instant(lastDuplicateAt),
                correlationMismatches == null ? List.of()
                        : Arrays.stream(correlationMismatches.split(",")).map(CorrelationMismatch::valueOf).toList(),
                locationUnknownReason == null, locationUnknownReason, eventId, dlqTopic, dlqPartition, dlqOffset, dlqDialect);
    }

    void deliveredAgain(Instant at) {
        LocalDateTime when = utc(at);
        this.duplicateDeliveries++;
        if (lastDuplicateAt == null || when.isAfter(lastDuplicateAt)) {
            this.lastDuplicateAt = when;
        }
    }

    void failureCorrelated() {
        this.failureCount++;
    }

    void attemptRequested(int attempt) {
        this.attemptCount = Math.max(attemptCount, attempt);
        this.lastPublishStatus = PublishStatus.REQUESTED;
    }

    void attemptDecided(int attempt, PublishStatus decided) {
        if (attempt == attemptCount) {
            this.lastPublishStatus = decided;
        }
    }

    void status(IncidentStatus status) {
        this.status = status;
    }

    IncidentStatus status() {
        return status;
    }

    String incidentId() {
        return incidentId;
    }

    String topic() {
        return topic;
    }

    String consumerGroup() {
        return consumerGroup;
    }

    ExceptionGroup group() {
        return group;
    }

    static LocalDateTime utc(Instant instant) {
        return LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    static Instant instant(LocalDateTime utc) {
        return utc == null ? null : utc.toInstant(ZoneOffset.UTC);
    }
}

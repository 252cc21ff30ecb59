package io.dlqdesk.projections.incident;

import io.dlqdesk.domain.api.IncidentStatus;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

import java.time.Instant;

/** One row per incident: the list view. */
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

    protected IncidentSummaryEntity() {
        // for JPA
    }

    IncidentSummaryEntity(String incidentId, String topic, int partition, long offset, String consumerGroup,
                          IncidentStatus status, Instant detectedAt) {
        this.incidentId = incidentId;
        this.topic = topic;
        this.partition = partition;
        this.offset = offset;
        this.consumerGroup = consumerGroup;
        this.status = status;
        this.detectedAt = detectedAt;
    }

    void status(IncidentStatus status) {
        this.status = status;
    }

    IncidentSummaryView toView() {
        return new IncidentSummaryView(incidentId, topic, partition, offset, consumerGroup, status, detectedAt);
    }
}

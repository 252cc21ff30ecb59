package io.dlqdesk.projections.readiness;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDateTime;

/** One replay_attempt row while a batch of events changes it. Times are kept as the table keeps them: UTC. */
final class AttemptRow {

    static final String COLUMNS = "incident_id, attempt, target_group, target_topic, target_partition, status, requested_at,"
            + " published_topic, published_partition, published_offset, decided_at, end_offset_at_decision";

    /** Its primary key; ordered as the table's, which is the order a batch writes (and locks) rows in. */
    record Key(String incidentId, int attempt) implements Comparable<Key> {

        @Override
        public int compareTo(Key other) {
            int byIncident = incidentId.compareTo(other.incidentId);
            return byIncident != 0 ? byIncident : Integer.compare(attempt, other.attempt);
        }
    }

    private final Key key;
    private final String targetGroup;
    private final String targetTopic;
    private final Integer targetPartition;
    private final LocalDateTime requestedAt;
    private String status;
    private String publishedTopic;
    private Integer publishedPartition;
    private Long publishedOffset;
    private LocalDateTime decidedAt;
    private Long endOffsetAtDecision;

    private AttemptRow(Key key, String targetGroup, String targetTopic, Integer targetPartition, String status, LocalDateTime requestedAt) {
        this.key = key;
        this.targetGroup = targetGroup;
        this.targetTopic = targetTopic;
        this.targetPartition = targetPartition;
        this.status = status;
        this.requestedAt = requestedAt;
    }

    static AttemptRow requested(Key key, String targetGroup, String targetTopic, int targetPartition, LocalDateTime requestedAt) {
        return new AttemptRow(key, targetGroup, targetTopic, targetPartition, "REQUESTED", requestedAt);
    }

    static AttemptRow read(ResultSet row, int number) throws SQLException {
        AttemptRow read = new AttemptRow(new Key(row.getString("incident_id"), row.getInt("attempt")), row.getString("target_group"),
                row.getString("target_topic"), row.getObject("target_partition", Integer.class), row.getString("status"),
                row.getObject("requested_at", LocalDateTime.class));
        read.publishedTopic = row.getString("published_topic");
        read.publishedPartition = row.getObject("published_partition", Integer.class);
        read.publishedOffset = row.getObject("published_offset", Long.class);
        read.decidedAt = row.getObject("decided_at", LocalDateTime.class);
        read.endOffsetAtDecision = row.getObject("end_offset_at_decision", Long.class);
        return read;
    }

    Key key() {
        return key;
    }

    /** The replay's outcome; where it was published (all null unless PUBLISHED) and the target's end offset then (null: unknown). */
    void decided(String status, String topic, Integer partition, Long offset, LocalDateTime at, Long endOffset) {
        this.status = status;
        this.publishedTopic = topic;
        this.publishedPartition = partition;
        this.publishedOffset = offset;
        this.decidedAt = at;
        this.endOffsetAtDecision = endOffset;
    }

    /** Marked PUBLISH_UNKNOWN: decided at the mark (the aggregate marks only a REQUESTED attempt, so none decided it before). */
    void markedUnknown(String status, LocalDateTime at, Long endOffset) {
        this.status = status;
        this.decidedAt = at;
        this.endOffsetAtDecision = endOffset;
    }

    /** In {@link #COLUMNS} order. */
    Object[] values() {
        return new Object[] {key.incidentId(), key.attempt(), targetGroup, targetTopic, targetPartition, status, requestedAt,
                publishedTopic, publishedPartition, publishedOffset, decidedAt, endOffsetAtDecision};
    }
}

package io.dlqdesk.projections.history;

import io.dlqdesk.domain.incident.OperatorAction;
import io.dlqdesk.domain.record.BoundedText;
import io.dlqdesk.domain.record.DlqDialect;
import io.dlqdesk.domain.record.FailedRecord;
import io.dlqdesk.domain.record.RecordLocation;
import io.dlqdesk.domain.replay.PublishStatus;
import io.dlqdesk.projections.MultiRowInsert;
import org.springframework.jdbc.core.JdbcTemplate;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * A row of {@code incident_history}: its columns, how a batch of rows is written and one read back, and the detail text
 * of a failure and of a record's location.
 */
final class HistoryRows {

    static final int MAX_DETAIL = 4000;
    static final String COLUMNS = "incident_id, seq, event_type, occurred_at, principal, reason, attempt, publish_status, detail,"
            + " dlq_topic, dlq_partition, dlq_offset, deliveries, last_seq, collapsed";
    /** {@code collapsed} of the row that an incident's duplicate deliveries collapse into (unique with the incident). */
    static final Integer DUPLICATES = 1;

    /** An admin action in the history's columns: its sequence (or its group or processor) in the incident's place. */
    static final String ADMIN_ACTION_AS_HISTORY = "COALESCE(sequence_identifier, processing_group), 0, action, occurred_at,"
            + " principal, reason, NULL, NULL, detail, NULL, NULL, NULL, 1, 0, NULL";
    /**
     * A row already there (its event handled again: a seq not past its last_seq) keeps what it has; a collapsed row meets
     * later duplicates and counts them (MySQL assigns left to right: last_seq last).
     */
    private static final MultiRowInsert ROWS = new MultiRowInsert("incident_history", COLUMNS,
            "deliveries = IF(VALUES(seq) > last_seq, deliveries + VALUES(deliveries), deliveries),"
                    + " detail = IF(VALUES(seq) > last_seq, VALUES(detail), detail),"
                    + " dlq_topic = IF(VALUES(seq) > last_seq, VALUES(dlq_topic), dlq_topic),"
                    + " dlq_partition = IF(VALUES(seq) > last_seq, VALUES(dlq_partition), dlq_partition),"
                    + " dlq_offset = IF(VALUES(seq) > last_seq, VALUES(dlq_offset), dlq_offset),"
                    + " last_seq = GREATEST(last_seq, VALUES(last_seq))");
    /** Key order is the write (and lock) order. */
    private static final Comparator<Object[]> BY_KEY = Comparator.comparing((Object[] row) -> (String) row[0])
            .thenComparingLong(row -> (Long) row[1]);

    private HistoryRows() {
    }

    /** {@code collapsed}: null, or the kind of row of which the incident has one ({@link #DUPLICATES}). */
    static Object[] row(String id, long seq, String type, Instant at, OperatorAction action, Integer attempt,
                        PublishStatus publishStatus, String detail, RecordLocation dlq, Integer collapsed) {
        String bounded = BoundedText.truncate(detail, MAX_DETAIL); // never half a surrogate pair: utf8mb4 refuses one
        return new Object[] {id, seq, type, LocalDateTime.ofInstant(at, ZoneOffset.UTC), action == null ? null : action.principal(),
                action == null ? null : action.reason(), attempt, publishStatus == null ? null : publishStatus.name(), bounded,
                dlq == null ? null : dlq.topic(), dlq == null ? null : dlq.partition(), dlq == null ? null : dlq.offset(), 1, seq, collapsed};
    }

    /**
     * A batch's rows in one statement, in key order. Not folded here: only the table knows which duplicates it counted
     * already (last_seq), and the statement meets them one row at a time, in seq order.
     */
    static void write(JdbcTemplate jdbc, List<Object[]> rows) {
        ROWS.write(jdbc, rows.stream().sorted(BY_KEY).toList());
    }

    static String failure(FailedRecord failure) {
        var key = failure.failureKey();
        String exception = failure.exception() == null ? "no exception recorded"
                : failure.exception().exceptionClass() + (failure.exception().message() == null ? "" : ": " + failure.exception().message());
        String dlq = location(failure.dlqLocation().topic(), failure.dlqLocation().partition(), failure.dlqLocation().offset());
        String where = failure.originalLocationKnown()
                ? location(key.topic(), key.partition(), key.offset()) + " (DLQ " + dlq + ")"
                : "a record whose original location is unknown (" + failure.locationUnknownReason() + "; DLQ " + dlq + ")";
        String timestamp = failure.dialect() != DlqDialect.SPRING
                ? " [read from a " + failure.dialect().name().toLowerCase(Locale.ROOT) + " DLQ record: "
                        + (failure.originalTimestamp() == null ? "no source timestamp" : "source timestamp type not written") + "]"
                : failure.originalTimestamp() != null && failure.originalTimestamp().rawType() != null
                ? " [original timestamp type '" + failure.originalTimestamp().rawType() + "' is not a Kafka type]" : "";
        return "group " + key.consumerGroup() + " failed on " + where + ": " + exception + timestamp;
    }

    static String location(String topic, int partition, long offset) {
        return topic + "/" + partition + "@" + offset;
    }

    static HistoryEntry entry(ResultSet row, int number) throws SQLException {
        Integer attempt = row.getObject("attempt", Integer.class);
        String publishStatus = row.getString("publish_status");
        String dlqTopic = row.getString("dlq_topic");
        int deliveries = row.getInt("deliveries");
        String detail = deliveries > 1 ? row.getString("detail") + "; " + deliveries + " deliveries in all, the last one's DLQ record named"
                : row.getString("detail");
        return new HistoryEntry(row.getString("incident_id"), row.getLong("seq"), row.getString("event_type"),
                row.getObject("occurred_at", LocalDateTime.class).toInstant(ZoneOffset.UTC), row.getString("principal"),
                row.getString("reason"), attempt, publishStatus == null ? null : PublishStatus.valueOf(publishStatus), detail,
                dlqTopic == null ? null : new RecordLocation(dlqTopic, row.getInt("dlq_partition"), row.getLong("dlq_offset")), deliveries);
    }
}

package io.dlqdesk.projections.incident;

import io.dlqdesk.domain.incident.IncidentStatus;
import io.dlqdesk.projections.MultiRowInsert;
import io.dlqdesk.projections.RowsByIds;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.UncategorizedSQLException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The incident_summary table, the one repository of the incident list: a batch reads the rows it touches by id and
 * writes them back in one upsert; queries read rows by id or by filter, count them, and a reset deletes them all.
 * Every row is mapped by {@link SummaryRow}.
 */
@Component
class IncidentSummaryTable {

    /**
     * Which incidents a query reads; a null filter matches every row. {@code detectedFrom} is inclusive, {@code detectedTo}
     * exclusive; {@code keySha256} is a {@link KeyHash}.
     */
    record Filter(String topic, String consumerGroup, IncidentStatus status, String exceptionGroup, Instant detectedFrom,
                  Instant detectedTo, String eventId, String keySha256) {

        /**
         * {@code WHERE} with a bound "column = ?" part for each filter given and none for the rest (empty when none is):
         * a "? IS NULL OR" part for an absent one would keep the optimiser from picking the index of the given ones.
         */
        String where(List<Object> values) {
            List<String> parts = new ArrayList<>();
            add(parts, values, "topic = ?", topic);
            add(parts, values, "consumer_group = ?", consumerGroup);
            add(parts, values, "status = ?", status == null ? null : status.name());
            add(parts, values, "exception_group = ?", exceptionGroup);
            add(parts, values, "detected_at >= ?", detectedFrom == null ? null : SummaryRow.utc(detectedFrom));
            add(parts, values, "detected_at < ?", detectedTo == null ? null : SummaryRow.utc(detectedTo));
            add(parts, values, "event_id = ?", eventId);
            add(parts, values, "key_sha256 = ?", keySha256);
            return parts.isEmpty() ? "" : " WHERE " + String.join(" AND ", parts);
        }

        private static void add(List<String> parts, List<Object> values, String part, Object value) {
            if (value != null) {
                parts.add(part);
                values.add(value);
            }
        }
    }

    /** The orders rows are paged in; incident_id breaks ties between equal times, so pages neither repeat nor skip a row. */
    enum Order {
        NEWEST_FIRST("detected_at DESC, incident_id DESC"),
        OLDEST_FIRST("detected_at ASC, incident_id ASC");

        private final String orderBy;

        Order(String orderBy) {
            this.orderBy = orderBy;
        }
    }

    private static final MultiRowInsert UPSERT = new MultiRowInsert("incident_summary", SummaryRow.COLUMNS,
            "topic = VALUES(topic), partition_no = VALUES(partition_no), record_offset = VALUES(record_offset),"
                    + " consumer_group = VALUES(consumer_group), status = VALUES(status), detected_at = VALUES(detected_at),"
                    + " exception_class = VALUES(exception_class), exception_group = VALUES(exception_group),"
                    + " exception_fingerprint = VALUES(exception_fingerprint), failure_count = VALUES(failure_count),"
                    + " attempt_count = VALUES(attempt_count), last_publish_status = VALUES(last_publish_status),"
                    + " duplicate_deliveries = VALUES(duplicate_deliveries), last_duplicate_at = VALUES(last_duplicate_at),"
                    + " correlation_mismatches = VALUES(correlation_mismatches), location_unknown_reason = VALUES(location_unknown_reason),"
                    + " event_id = VALUES(event_id), key_sha256 = VALUES(key_sha256), dlq_topic = VALUES(dlq_topic),"
                    + " dlq_partition = VALUES(dlq_partition), dlq_offset = VALUES(dlq_offset), dlq_dialect = VALUES(dlq_dialect)");

    private final JdbcTemplate jdbc;

    IncidentSummaryTable(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    javax.sql.DataSource dataSource() {
        return jdbc.getDataSource();
    }

    /**
     * Stops the statement that the connection with this server thread id runs ({@code KILL QUERY}: the connection stays),
     * sent from another connection of the pool; false when it could not be sent.
     */
    boolean killQuery(long serverThread) {
        try {
            jdbc.execute("KILL QUERY " + serverThread);
            return true;
        } catch (DataAccessException e) {
            return false;
        }
    }

    /** A failure of {@code sql} as the rest of this table's reads report theirs (a connection lost: a resource failure). */
    DataAccessException translate(String task, Sql sql, SQLException failure) {
        DataAccessException translated = jdbc.getExceptionTranslator().translate(task, sql.text(), failure);
        return translated != null ? translated : new UncategorizedSQLException(task, sql.text(), failure);
    }

    /** The stored rows of {@code incidentIds}, by id; an id without a row is absent. */
    Map<String, SummaryRow> read(Collection<String> incidentIds) {
        Map<String, SummaryRow> rows = new HashMap<>();
        RowsByIds.read(jdbc, "SELECT " + SummaryRow.COLUMNS + " FROM incident_summary WHERE incident_id", incidentIds, SummaryRow::read)
                .forEach(row -> rows.put(row.incidentId(), row));
        return rows;
    }

    /** Inserts new rows and replaces stored ones: written again, a row comes out the same. */
    void write(List<SummaryRow> rows) {
        UPSERT.write(jdbc, rows.stream().map(SummaryRow::values).toList());
    }

    Optional<SummaryRow> find(String incidentId) {
        return jdbc.query("SELECT " + SummaryRow.COLUMNS + " FROM incident_summary WHERE incident_id = ?", SummaryRow::read, incidentId)
                .stream().findFirst();
    }

    /** The rows {@code filter} matches, in {@code order}, {@code limit} of them from the {@code offset}th: a page without its total. */
    List<SummaryRow> rows(Filter filter, Order order, long offset, int limit) {
        Sql page = selectStatement(filter, order).then(" LIMIT ? OFFSET ?", limit, offset);
        return jdbc.query(page.text(), SummaryRow::read, page.values());
    }

    long count(Filter filter) {
        Sql count = countStatement(filter);
        Long rows = jdbc.queryForObject(count.text(), Long.class, count.values());
        return rows == null ? 0 : rows;
    }

    /** A statement and the values of its placeholders, in order. */
    record Sql(String text, Object... values) {

        /** This statement with {@code more} after it, and the values of its placeholders after this one's. */
        Sql then(String more, Object... moreValues) {
            Object[] all = Arrays.copyOf(values, values.length + moreValues.length);
            System.arraycopy(moreValues, 0, all, values.length, moreValues.length);
            return new Sql(text + more, all);
        }
    }

    /**
     * Every row {@code filter} matches, in {@code order}: the one statement behind a page of the list (which adds its
     * page to it) and an export (which reads it whole, row by row).
     */
    static Sql selectStatement(Filter filter, Order order) {
        List<Object> values = new ArrayList<>();
        String where = filter.where(values);
        return new Sql("SELECT " + SummaryRow.COLUMNS + " FROM incident_summary" + where + " ORDER BY " + order.orderBy, values.toArray());
    }

    /** How many rows {@code filter} matches. */
    static Sql countStatement(Filter filter) {
        List<Object> values = new ArrayList<>();
        String where = filter.where(values);
        return new Sql("SELECT COUNT(*) FROM incident_summary" + where, values.toArray());
    }

    /** Every incident's original topic once, in the table's collation order. */
    List<String> topics() {
        return jdbc.queryForList("SELECT DISTINCT topic FROM incident_summary ORDER BY topic", String.class);
    }

    /** When the oldest OPEN or ACKED incident was detected; null while there is none. */
    Instant oldestUnresolvedDetectedAt() {
        // one index lookup per status: MIN over an IN list would read every unresolved incident's entry
        LocalDateTime oldest = jdbc.queryForObject("SELECT MIN(oldest) FROM ("
                + "SELECT MIN(detected_at) AS oldest FROM incident_summary WHERE status = 'OPEN'"
                + " UNION ALL SELECT MIN(detected_at) FROM incident_summary WHERE status = 'ACKED') unresolved", LocalDateTime.class);
        return SummaryRow.instant(oldest);
    }

    /** DELETE, not TRUNCATE: a reset stores the replay tokens in the same transaction, and TRUNCATE would commit it. */
    void deleteAll() {
        jdbc.update("DELETE FROM incident_summary");
    }
}

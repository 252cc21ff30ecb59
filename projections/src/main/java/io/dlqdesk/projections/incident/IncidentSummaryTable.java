package io.dlqdesk.projections.incident;

import io.dlqdesk.projections.MultiRowInsert;
import io.dlqdesk.projections.RowsByIds;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The incident_summary table as a batch writes it: the rows it touches read by id, then written back in one upsert. */
@Component
class IncidentSummaryTable {

    private static final MultiRowInsert UPSERT = new MultiRowInsert("incident_summary", SummaryRow.COLUMNS,
            "topic = VALUES(topic), partition_no = VALUES(partition_no), record_offset = VALUES(record_offset),"
                    + " consumer_group = VALUES(consumer_group), status = VALUES(status), detected_at = VALUES(detected_at),"
                    + " exception_class = VALUES(exception_class), exception_group = VALUES(exception_group),"
                    + " exception_fingerprint = VALUES(exception_fingerprint), failure_count = VALUES(failure_count),"
                    + " attempt_count = VALUES(attempt_count), last_publish_status = VALUES(last_publish_status),"
                    + " duplicate_deliveries = VALUES(duplicate_deliveries), last_duplicate_at = VALUES(last_duplicate_at),"
                    + " correlation_mismatches = VALUES(correlation_mismatches), location_unknown_reason = VALUES(location_unknown_reason),"
                    + " event_id = VALUES(event_id), key_sha256 = VALUES(key_sha256), dlq_topic = VALUES(dlq_topic),"
                    + " dlq_partition = VALUES(dlq_partition), dlq_offset = VALUES(dlq_offset)");

    private final JdbcTemplate jdbc;

    IncidentSummaryTable(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    javax.sql.DataSource dataSource() {
        return jdbc.getDataSource();
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
}

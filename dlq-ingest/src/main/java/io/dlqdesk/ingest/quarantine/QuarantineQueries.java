package io.dlqdesk.ingest.quarantine;

import org.axonframework.queryhandling.QueryHandler;
import org.springframework.jdbc.core.JdbcTemplate;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;

/** Answers queries about the quarantine table, which this module owns: lists of summaries, one record in detail. */
public class QuarantineQueries {

    private final JdbcTemplate jdbc;

    public QuarantineQueries(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @QueryHandler
    public QuarantinePage handle(ListQuarantineQuery query) {
        String where = query.dlqTopic() == null ? "" : " WHERE dlq_topic = ?";
        Object[] filter = query.dlqTopic() == null ? new Object[0] : new Object[] {query.dlqTopic()};
        long total = jdbc.queryForObject("SELECT COUNT(*) FROM dlq_quarantine" + where, Long.class, filter);
        // summaries only: the stored sizes, never the headers, key or value themselves
        List<QuarantineSummary> items = jdbc.query("SELECT dlq_topic, dlq_partition, dlq_offset, reason, quarantined_at, headers_bytes,"
                        + " key_bytes, value_bytes FROM dlq_quarantine" + where
                        + " ORDER BY quarantined_at DESC, id DESC LIMIT " + query.size() + " OFFSET " + ((long) query.page() * query.size()),
                (row, number) -> new QuarantineSummary(row.getString("dlq_topic"), row.getInt("dlq_partition"), row.getLong("dlq_offset"),
                        row.getString("reason"), row.getObject("quarantined_at", LocalDateTime.class).toInstant(ZoneOffset.UTC),
                        row.getObject("headers_bytes", Long.class), row.getObject("key_bytes", Integer.class),
                        row.getObject("value_bytes", Integer.class)),
                filter);
        return new QuarantinePage(items, query.page(), query.size(), total);
    }

    /** The bytes are cut in the database: a record of many megabytes costs no more than {@code maxBytes} to show. */
    @QueryHandler
    public Optional<QuarantinedRecordContent> handle(FindQuarantinedRecordQuery query) {
        return jdbc.query("SELECT dlq_topic, dlq_partition, dlq_offset, reason, quarantined_at, headers_json, record_timestamp,"
                        + " key_bytes, value_bytes, SUBSTRING(record_key, 1, ?) AS key_prefix,"
                        + " SUBSTRING(record_value, 1, ?) AS value_prefix FROM dlq_quarantine"
                        + " WHERE dlq_topic = ? AND dlq_partition = ? AND dlq_offset = ?",
                (row, number) -> new QuarantinedRecordContent(new QuarantinedRecord(row.getString("dlq_topic"), row.getInt("dlq_partition"),
                        row.getLong("dlq_offset"), row.getString("reason"),
                        row.getObject("quarantined_at", LocalDateTime.class).toInstant(ZoneOffset.UTC), row.getString("headers_json"),
                        row.getObject("key_bytes", Integer.class), row.getObject("value_bytes", Integer.class)),
                        row.getLong("record_timestamp"), row.getBytes("key_prefix"), row.getBytes("value_prefix")),
                query.maxBytes(), query.maxBytes(), query.dlqTopic(), query.dlqPartition(), query.dlqOffset()).stream().findFirst();
    }
}

package io.dlqdesk.projections;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.PreparedStatementCallback;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Many rows as JDBC batches of a one-row {@code INSERT … ON DUPLICATE KEY UPDATE} (up to 500 rows, about 1 MiB of values
 * each), which the driver's {@code rewriteBatchedStatements} (shipped on) sends as one multi-row statement, one round trip.
 * The one-row text stays the same, so the driver parses it once per connection (its statement cache); a multi-row text
 * built here was parsed again for every batch, which cost more than it saved (JFR, bench ingest). Values are bound with
 * the driver's typed setters, not through Spring's per-value type checks and trace logging. Rows are written in the order
 * given: callers sort them so that concurrent batches lock rows in the same order.
 */
public final class MultiRowInsert {

    static final int MAX_ROWS = 500;
    /** Values' bytes per batch, over-counted (as the driver may write them, escaped, bytes as hex): far below max_allowed_packet. */
    static final long MAX_BYTES = 1 << 20;

    private final String statement;
    private final int columns;

    /** {@code onDuplicateKey}: what follows {@code ON DUPLICATE KEY UPDATE} ({@code VALUES(col)}: MySQL 8 and MariaDB both). */
    public MultiRowInsert(String table, String columns, String onDuplicateKey) {
        this.columns = columns.split(",").length;
        this.statement = "INSERT INTO " + table + " (" + columns + ") VALUES (" + String.join(", ", Collections.nCopies(this.columns, "?"))
                + ") ON DUPLICATE KEY UPDATE " + onDuplicateKey;
    }

    public void write(JdbcTemplate jdbc, List<Object[]> rows) {
        for (Object[] values : rows) {
            if (values.length != columns) {
                throw new IllegalArgumentException("a row of " + values.length + " values for " + columns + " columns");
            }
        }
        for (List<Object[]> batch : batches(rows)) {
            jdbc.execute(statement, (PreparedStatementCallback<int[]>) prepared -> {
                for (Object[] values : batch) {
                    for (int i = 0; i < values.length; i++) {
                        bind(prepared, i + 1, values[i]);
                    }
                    prepared.addBatch();
                }
                return prepared.executeBatch();
            });
        }
    }

    /** The rows cut, in order, into batches of at most {@link #MAX_ROWS} rows and about {@link #MAX_BYTES}. */
    static List<List<Object[]>> batches(List<Object[]> rows) {
        List<List<Object[]>> batches = new ArrayList<>();
        int from = 0;
        long bytes = 0;
        for (int i = 0; i < rows.size(); i++) {
            long rowBytes = bytes(rows.get(i));
            if (i > from && (i - from == MAX_ROWS || bytes + rowBytes > MAX_BYTES)) {
                batches.add(rows.subList(from, i));
                from = i;
                bytes = 0;
            }
            bytes += rowBytes;
        }
        if (from < rows.size()) {
            batches.add(rows.subList(from, rows.size()));
        }
        return batches;
    }

    /** Typed setters where the type is known (what the driver's setObject picks for them, without its lookups); else setObject. */
    private static void bind(PreparedStatement statement, int index, Object value) throws SQLException {
        if (value == null) {
            statement.setNull(index, Types.NULL);
        } else if (value instanceof String text) {
            statement.setString(index, text);
        } else if (value instanceof Long number) {
            statement.setLong(index, number);
        } else if (value instanceof Integer number) {
            statement.setInt(index, number);
        } else {
            statement.setObject(index, value);
        }
    }

    private static long bytes(Object[] values) {
        long bytes = 0;
        for (Object value : values) {
            if (value instanceof String text) {
                bytes += (long) text.length() * 4; // up to three UTF-8 bytes per char, and room for escaping
            } else if (value instanceof byte[] data) {
                bytes += 2L * data.length + 3;
            } else {
                bytes += 32;
            }
        }
        return bytes;
    }
}

package io.dlqdesk.projections;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.SqlTypeValue;
import org.springframework.jdbc.core.StatementCreatorUtils;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.Collections;
import java.util.List;

/**
 * Many rows as multi-row INSERTs built here, each run once: one round trip per statement of up to 500 rows and about
 * 1 MiB of values. Not a JDBC batch for the driver to rewrite: Connector/J encodes every value of a batch once to size
 * the statement and again to write it, and copies every row's bindings in between (half of a read model's time in a
 * profile of full-size ingest rounds). Rows are written in the order given: callers sort them so that concurrent
 * batches lock rows in the same order. Update counts are never read.
 */
public final class MultiRowInsert {

    static final int MAX_ROWS = 500;
    static final int MAX_BYTES = 1 << 20;

    private final String head;
    private final String row;
    private final String tail;
    private final int columns;

    /** {@code onDuplicateKey}: what follows {@code ON DUPLICATE KEY UPDATE} ({@code VALUES(col)}: MySQL 8 and MariaDB both). */
    public MultiRowInsert(String table, String columns, String onDuplicateKey) {
        this.columns = columns.split(",").length;
        this.head = "INSERT INTO " + table + " (" + columns + ") VALUES ";
        this.row = "(" + String.join(", ", Collections.nCopies(this.columns, "?")) + ")";
        this.tail = " ON DUPLICATE KEY UPDATE " + onDuplicateKey;
    }

    public void write(JdbcTemplate jdbc, List<Object[]> rows) {
        for (Object[] values : rows) {
            if (values.length != columns) {
                throw new IllegalArgumentException("a row of " + values.length + " values for " + columns + " columns");
            }
        }
        int from = 0;
        while (from < rows.size()) {
            int to = end(rows, from);
            List<Object[]> statement = rows.subList(from, to);
            jdbc.update(head + String.join(", ", Collections.nCopies(statement.size(), row)) + tail, ps -> bind(ps, statement));
            from = to;
        }
    }

    /** Where the statement that starts at {@code from} ends: at most {@link #MAX_ROWS} rows and about {@link #MAX_BYTES}, one row at least. */
    static int end(List<Object[]> rows, int from) {
        long bytes = 0;
        int to = from;
        while (to < rows.size() && to - from < MAX_ROWS) {
            bytes += size(rows.get(to));
            if (to > from && bytes > MAX_BYTES) {
                break;
            }
            to++;
        }
        return to;
    }

    /** About the bytes a row takes in the statement, escaping included: a character of text can take four. */
    private static long size(Object[] values) {
        long bytes = 0;
        for (Object value : values) {
            bytes += value instanceof CharSequence text ? 4L * text.length() + 2 : value instanceof byte[] binary ? 2L * binary.length + 3 : 24;
        }
        return bytes;
    }

    private static void bind(PreparedStatement ps, List<Object[]> rows) throws SQLException {
        int index = 0;
        for (Object[] values : rows) {
            for (Object value : values) {
                index++;
                // a null bound as NULL at once: untyped, Spring asks Connector/J for the parameter's type, which answers with
                // an exception, and then reads the connection's metadata, for every null of every row (JFR: a tenth of a
                // read model's time in a rebuild)
                if (value == null) {
                    ps.setNull(index, Types.NULL);
                } else {
                    StatementCreatorUtils.setParameterValue(ps, index, SqlTypeValue.TYPE_UNKNOWN, value);
                }
            }
        }
    }
}

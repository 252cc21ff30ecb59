package io.dlqdesk.projections;

import org.springframework.jdbc.core.JdbcTemplate;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * One INSERT statement for many rows (up to 500 a statement), so that a batch of rows costs one round trip and one
 * statement for the server to parse, not one per row. The rows are written in the order given: callers sort them
 * so that concurrent batches lock rows in the same order.
 */
public final class MultiRowInsert {

    static final int ROWS_PER_STATEMENT = 500;

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
        for (int from = 0; from < rows.size(); from += ROWS_PER_STATEMENT) {
            List<Object[]> chunk = rows.subList(from, Math.min(rows.size(), from + ROWS_PER_STATEMENT));
            List<Object> arguments = new ArrayList<>(chunk.size() * columns);
            for (Object[] values : chunk) {
                if (values.length != columns) {
                    throw new IllegalArgumentException("a row of " + values.length + " values for " + columns + " columns");
                }
                Collections.addAll(arguments, values);
            }
            jdbc.update(head + String.join(", ", Collections.nCopies(chunk.size(), row)) + tail, arguments.toArray());
        }
    }
}

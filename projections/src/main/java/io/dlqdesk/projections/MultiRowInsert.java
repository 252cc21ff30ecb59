package io.dlqdesk.projections;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.SqlParameterValue;

import java.sql.Types;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Many rows as one JDBC batch of a one-row INSERT (up to 500 rows a batch): with the driver's
 * {@code rewriteBatchedStatements} (shipped on) it goes as one multi-row statement, one round trip, while the
 * statement text stays the same for the driver's statement cache (a multi-row text built here would be parsed
 * again for every batch size). Rows are written in the order given: callers sort them so that concurrent batches
 * lock rows in the same order.
 */
public final class MultiRowInsert {

    static final int ROWS_PER_STATEMENT = 500;
    /**
     * A null bound as NULL at once: an untyped null makes Spring ask the driver for the parameter's type, which Connector/J
     * answers with an exception and Spring then reads the connection's metadata, for every null of every row (a tenth of a
     * read model's time in a rebuild, by JFR).
     */
    private static final SqlParameterValue NULL = new SqlParameterValue(Types.NULL, null);

    private final String statement;
    private final int columns;

    /** {@code onDuplicateKey}: what follows {@code ON DUPLICATE KEY UPDATE} ({@code VALUES(col)}: MySQL 8 and MariaDB both). */
    public MultiRowInsert(String table, String columns, String onDuplicateKey) {
        this.columns = columns.split(",").length;
        this.statement = "INSERT INTO " + table + " (" + columns + ") VALUES (" + String.join(", ", Collections.nCopies(this.columns, "?"))
                + ") ON DUPLICATE KEY UPDATE " + onDuplicateKey;
    }

    public void write(JdbcTemplate jdbc, List<Object[]> rows) {
        List<Object[]> bound = new ArrayList<>(rows.size());
        for (Object[] values : rows) {
            if (values.length != columns) {
                throw new IllegalArgumentException("a row of " + values.length + " values for " + columns + " columns");
            }
            Object[] row = values.clone();
            for (int i = 0; i < row.length; i++) {
                if (row[i] == null) {
                    row[i] = NULL;
                }
            }
            bound.add(row);
        }
        for (int from = 0; from < bound.size(); from += ROWS_PER_STATEMENT) {
            jdbc.batchUpdate(statement, bound.subList(from, Math.min(bound.size(), from + ROWS_PER_STATEMENT)));
        }
    }
}

package io.dlqdesk.projections;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.SqlTypeValue;
import org.springframework.jdbc.core.StatementCreatorUtils;

import java.sql.Types;
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
        for (int from = 0; from < rows.size(); from += ROWS_PER_STATEMENT) {
            List<Object[]> batch = rows.subList(from, Math.min(rows.size(), from + ROWS_PER_STATEMENT));
            jdbc.batchUpdate(statement, batch, batch.size(), (ps, values) -> {
                for (int i = 0; i < values.length; i++) {
                    // a null bound as NULL at once: untyped, Spring asks Connector/J for the parameter's type, which answers with
                    // an exception, and then reads the connection's metadata, for every null of every row (JFR: a tenth of a
                    // read model's time in a rebuild)
                    if (values[i] == null) {
                        ps.setNull(i + 1, Types.NULL);
                    } else {
                        StatementCreatorUtils.setParameterValue(ps, i + 1, SqlTypeValue.TYPE_UNKNOWN, values[i]);
                    }
                }
            });
        }
    }
}

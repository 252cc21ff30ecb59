package io.dlqdesk.bench;

import org.springframework.jdbc.core.JdbcTemplate;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where database time goes: the server's own counters (every connection, this run's included) before
 * and after a phase, per record — statements (each one a round trip), commits and fsyncs.
 */
final class DatabaseWork {

    // Handler_commit counts autocommitted statements too; MariaDB 11 reports fsyncs as Innodb_data_fsyncs (log ones included)
    private static final List<String> COUNTERS = List.of("Questions", "Handler_commit", "Innodb_data_fsyncs", "Innodb_os_log_fsyncs");

    private final JdbcTemplate jdbc;
    private Map<String, Long> before;

    private DatabaseWork(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
        this.before = counters();
    }

    static DatabaseWork start(JdbcTemplate jdbc) {
        return new DatabaseWork(jdbc);
    }

    /** Statements, commits and fsyncs per item since {@link #start}. */
    Map<String, Object> per(long items) {
        Map<String, Long> after = counters();
        Map<String, Object> per = new LinkedHashMap<>();
        per.put("statements_per_item", round(after.get("Questions") - before.get("Questions"), items));
        per.put("commits_per_item", round(after.get("Handler_commit") - before.get("Handler_commit"), items));
        per.put("fsyncs_per_item", round(after.get("Innodb_data_fsyncs") - before.get("Innodb_data_fsyncs")
                + after.get("Innodb_os_log_fsyncs") - before.get("Innodb_os_log_fsyncs"), items));
        return per;
    }

    private Map<String, Long> counters() {
        Map<String, Long> values = new LinkedHashMap<>();
        jdbc.query("SHOW GLOBAL STATUS WHERE Variable_name IN ('Questions', 'Handler_commit', 'Innodb_data_fsyncs', 'Innodb_os_log_fsyncs')",
                row -> {
                    values.put(row.getString(1), row.getLong(2));
                });
        for (String counter : COUNTERS) {
            values.putIfAbsent(counter, 0L);
        }
        return values;
    }

    private static double round(long count, long items) {
        return Math.round(count * 100.0 / Math.max(1, items)) / 100.0;
    }
}

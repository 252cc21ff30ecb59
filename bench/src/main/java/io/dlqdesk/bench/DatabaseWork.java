package io.dlqdesk.bench;

import org.springframework.jdbc.core.JdbcTemplate;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where database time goes: the server's own counters (every connection, this run's included) before
 * and after a phase, per record — statements (each one a round trip), commits and fsyncs, and the statements by kind
 * (the server's {@code Com_*} counters: select, insert, update, commit, set_option for autocommit, …).
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
        per.put("statements_per_item_by_kind", byKind(after, items));
        return per;
    }

    /** The kinds that make up at least 0.005 statements per item, most first. */
    private Map<String, Object> byKind(Map<String, Long> after, long items) {
        Map<String, Object> kinds = new LinkedHashMap<>();
        after.entrySet().stream().filter(counter -> counter.getKey().startsWith("Com_"))
                .map(counter -> Map.entry(counter.getKey().substring("Com_".length()), counter.getValue() - before.getOrDefault(counter.getKey(), 0L)))
                .filter(kind -> kind.getValue() * 200 >= Math.max(1, items))
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .forEach(kind -> kinds.put(kind.getKey(), round3(kind.getValue(), items)));
        return kinds;
    }

    private Map<String, Long> counters() {
        Map<String, Long> values = new LinkedHashMap<>();
        jdbc.query("SHOW GLOBAL STATUS WHERE Variable_name IN ('Questions', 'Handler_commit', 'Innodb_data_fsyncs', 'Innodb_os_log_fsyncs')"
                + " OR Variable_name LIKE 'Com\\_%'", row -> {
                    values.put(row.getString(1), row.getLong(2));
                });
        for (String counter : COUNTERS) {
            values.putIfAbsent(counter, 0L);
        }
        return values;
    }

    private static double round3(long count, long items) {
        return Math.round(count * 1000.0 / Math.max(1, items)) / 1000.0;
    }

    private static double round(long count, long items) {
        return Math.round(count * 100.0 / Math.max(1, items)) / 100.0;
    }
}

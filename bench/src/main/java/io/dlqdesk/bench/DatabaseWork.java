package io.dlqdesk.bench;

import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Where database time goes: the server's own counters (every connection, this run's included) before
 * and after a phase, per record — statements (each one a round trip), commits and fsyncs, and the statements by kind
 * (the server's {@code Com_*} counters: select, insert, update, commit, set_option for autocommit, …).
 */
final class DatabaseWork {

    // Handler_commit counts autocommitted statements too; MariaDB 11 reports fsyncs as Innodb_data_fsyncs (log ones included)
    private static final List<String> COUNTERS = List.of("Questions", "Handler_commit", "Innodb_data_fsyncs", "Innodb_os_log_fsyncs");

    private final JdbcTemplate jdbc;
    private final Map<String, Long> before;
    private final Map<String, long[]> tablesBefore;
    private final Map<String, Long> roundTripsBefore;

    private DatabaseWork(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
        this.before = counters();
        this.tablesBefore = tables();
        this.roundTripsBefore = RoundTrips.snapshot();
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
        per.put("round_trips_per_item_by_component", significantPerItem(RoundTrips.snapshot().entrySet().stream()
                .map(component -> Map.entry(component.getKey(), component.getValue() - roundTripsBefore.getOrDefault(component.getKey(), 0L))), items));
        if (!tablesBefore.isEmpty()) {
            per.put("rows_changed_per_item_by_table", byTable(items));
        }
        return per;
    }

    /**
     * Rows written per item by table, and in brackets the index entries written with them (MariaDB's user statistics,
     * switched on by the bench; on MySQL nothing is printed): which component's writes the database spends its time on.
     * The tables with at least 0.005 rows per item, most first.
     */
    private Map<String, Object> byTable(long items) {
        Map<String, Object> tables = new LinkedHashMap<>();
        tables().entrySet().stream()
                .map(table -> {
                    long[] then = tablesBefore.getOrDefault(table.getKey(), new long[2]);
                    return Map.entry(table.getKey(), new long[] {table.getValue()[0] - then[0], table.getValue()[1] - then[1]});
                })
                .filter(table -> table.getValue()[0] * 200 >= Math.max(1, items))
                .sorted((a, b) -> Long.compare(b.getValue()[0], a.getValue()[0]))
                .forEach(table -> tables.put(table.getKey(), round3(table.getValue()[0], items) + " (" + round3(table.getValue()[1], items) + ")"));
        return tables;
    }

    /** Rows changed and index entries changed by table, since the server started; empty where the server has no such statistics. */
    private Map<String, long[]> tables() {
        Map<String, long[]> tables = new LinkedHashMap<>();
        try {
            jdbc.execute("SET GLOBAL userstat = 1");
            jdbc.query("SELECT TABLE_NAME, ROWS_CHANGED, ROWS_CHANGED_X_INDEXES FROM information_schema.TABLE_STATISTICS WHERE TABLE_SCHEMA = DATABASE()",
                    row -> {
                        tables.put(row.getString(1), new long[] {row.getLong(2), row.getLong(3)});
                    });
        } catch (DataAccessException notMariaDb) {
            tables.clear();
        }
        return tables;
    }

    /** The kinds that make up at least 0.005 statements per item, most first. */
    private Map<String, Object> byKind(Map<String, Long> after, long items) {
        return significantPerItem(after.entrySet().stream().filter(counter -> counter.getKey().startsWith("Com_"))
                .map(counter -> Map.entry(counter.getKey().substring("Com_".length()), counter.getValue() - before.getOrDefault(counter.getKey(), 0L))), items);
    }

    /** Counts per item, those of at least 0.005 per item, most first. */
    private static Map<String, Object> significantPerItem(Stream<Map.Entry<String, Long>> counts, long items) {
        Map<String, Object> per = new LinkedHashMap<>();
        counts.filter(count -> count.getValue() * 200 >= Math.max(1, items))
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .forEach(count -> per.put(count.getKey(), round3(count.getValue(), items)));
        return per;
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

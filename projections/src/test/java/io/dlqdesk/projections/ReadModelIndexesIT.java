package io.dlqdesk.projections;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.IncidentStatus;
import io.dlqdesk.domain.record.RecordKey;
import io.dlqdesk.projections.asof.FindIncidentsAsOfQuery;
import io.dlqdesk.projections.asof.IncidentStatusIntervalProjection;
import io.dlqdesk.projections.history.FindIncidentHistoryQuery;
import io.dlqdesk.projections.history.IncidentHistoryProjection;
import io.dlqdesk.projections.history.ListAuditQuery;
import io.dlqdesk.projections.incident.FindIncidentSummaryQuery;
import io.dlqdesk.projections.incident.IncidentSummaryProjection;
import io.dlqdesk.projections.incident.ListIncidentsQuery;
import io.dlqdesk.projections.incident.OpenIncidentGauges;
import io.dlqdesk.projections.incident.SelectIncidentsQuery;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.axonframework.messaging.responsetypes.ResponseTypes;
import org.axonframework.queryhandling.SimpleQueryBus;
import org.axonframework.queryhandling.annotation.AnnotationQueryHandlerAdapter;
import org.axonframework.queryhandling.GenericQueryMessage;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DelegatingDataSource;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

import javax.sql.DataSource;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every secondary index of the tables written for each ingested record (the list, the history, the as-of intervals) is
 * one that a query the service answers reads along, and each such query reads along its index: the queries are the ones
 * the query handlers send (recorded from the driver, with their values), asked of the real database's optimiser with
 * {@code EXPLAIN} over a realistic spread of 20,000 incidents. An index no query uses costs every ingested record an
 * entry for nothing: the last test fails on one, so that it is dropped, not kept by habit. Unique keys are left out: they
 * hold rules (one collapsed duplicate entry per incident), not queries. No query here reads one of those tables whole.
 * Without Docker (as here) the optimiser asked is the embedded MariaDB's; with Docker it is MySQL 8.4's.
 */
@RealInfrastructure
class ReadModelIndexesIT {

    private static final int INCIDENTS = 20_000;
    /** Incident n is detected n minutes after this: 20,000 incidents over two weeks. */
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final List<String> PER_RECORD_TABLES = List.of("incident_summary", "incident_history", "incident_status_interval");

    private static SingleConnectionDataSource connection;
    private static JdbcTemplate jdbc;
    private static SimpleQueryBus queries;
    private static final Recorded recorded = new Recorded();
    /** The indexes each query read along, by the query's name. */
    private static final Map<String, Set<String>> used = new TreeMap<>();

    @BeforeAll
    static void incidents(TestDatabase database) {
        Flyway.configure().dataSource(database.jdbcUrl(), database.username(), database.password())
                .locations("classpath:db/migration/it-axon", "classpath:db/migration/projections").outOfOrder(true).load().migrate();
        connection = new SingleConnectionDataSource(database.jdbcUrl(), database.username(), database.password(), true);
        jdbc = new JdbcTemplate(connection);
        fill();
        JdbcTemplate recording = new JdbcTemplate(recorded.over(connection));
        queries = SimpleQueryBus.builder().build();
        for (Object projection : List.of(IncidentSummaryProjection.over(recording), new IncidentHistoryProjection(recording),
                new IncidentStatusIntervalProjection(recording))) {
            new AnnotationQueryHandlerAdapter<>(projection).subscribe(queries);
        }
    }

    @AfterAll
    static void disconnect() {
        connection.destroy();
    }

    @Test
    void theListReadsEachFilterAlongItsOwnIndex() {
        assertThat(plan("list, by topic", () -> list(new ListIncidentsQuery("topic-7", null, null, null, null, null, 0, 50))))
                .containsEntry("incident_summary", "ix_incident_summary_topic_status");
        assertThat(plan("list, by consumer group", () -> list(new ListIncidentsQuery(null, "group-3", null, null, null, null, 0, 50))))
                .containsEntry("incident_summary", "ix_incident_summary_consumer_group_status");
        assertThat(plan("list, by exception group", () -> list(new ListIncidentsQuery(null, null, null, exceptionGroup(11), null, null, 0, 50))))
                .containsEntry("incident_summary", "ix_incident_summary_group_status");
        assertThat(plan("list, by status", () -> list(new ListIncidentsQuery(null, null, IncidentStatus.OPEN, null, null, null, 0, 50))))
                .containsEntry("incident_summary", "ix_incident_summary_status_detected");
        assertThat(plan("list, unfiltered, newest first", () -> list(new ListIncidentsQuery(null, null, null, null, null, null, 0, 50))))
                .containsEntry("incident_summary", "ix_incident_summary_detected_id");
        assertThat(plan("list, detected in an hour", () -> list(new ListIncidentsQuery(null, null, null, null, T0.plusSeconds(3_600),
                T0.plusSeconds(7_200), 0, 50)))).containsEntry("incident_summary", "ix_incident_summary_detected_id");
        assertThat(plan("list, by eventId", () -> list(new ListIncidentsQuery(null, null, null, null, null, null, "evt-4711", null, 0, 50))))
                .containsEntry("incident_summary", "ix_incident_summary_event_id");
        assertThat(plan("list, by key", () -> list(new ListIncidentsQuery(null, null, null, null, null, null, null,
                new RecordKey("key-4711".getBytes(UTF_8)), 0, 50)))).containsEntry("incident_summary", "ix_incident_summary_key_sha256");
    }

    @Test
    void oneIncidentItsHistoryAndABulkSelectionReadByKey() {
        assertThat(plan("one incident", () -> queries.query(new GenericQueryMessage<>(
                new FindIncidentSummaryQuery(IncidentId.parse(incident(4711))), ResponseTypes.optionalInstanceOf(Object.class)))))
                .containsEntry("incident_summary", "PRIMARY");
        assertThat(plan("one incident's history", () -> queries.query(new GenericQueryMessage<>(
                new FindIncidentHistoryQuery(IncidentId.parse(incident(4711))), ResponseTypes.multipleInstancesOf(Object.class)))))
                .containsEntry("incident_history", "PRIMARY");
        assertThat(plan("replay job selection, a topic's open incidents", () -> queries.query(new GenericQueryMessage<>(
                new SelectIncidentsQuery("topic-7", null, IncidentStatus.OPEN, null, null, null, 1_000), ResponseTypes.multipleInstancesOf(Object.class)))))
                .containsEntry("incident_summary", "ix_incident_summary_topic_status");
    }

    @Test
    void theAuditTheAsOfReportAndTheOldestOpenIncidentReadAlongTime() {
        assertThat(plan("audit of an hour", () -> queries.query(new GenericQueryMessage<>(new ListAuditQuery(null, T0.plusSeconds(3_600),
                T0.plusSeconds(7_200), 0, 50), ResponseTypes.instanceOf(Object.class))))).containsEntry("incident_history", "ix_incident_history_time");
        assertThat(plan("incidents as of an instant", () -> queries.query(new GenericQueryMessage<>(new FindIncidentsAsOfQuery(T0.plusSeconds(600_000),
                null, 100), ResponseTypes.instanceOf(Object.class))))).containsEntry("incident_status_interval", "ix_incident_status_interval_from");
        // MIN(detected_at) of one status is the first entry of (status, detected_at): the optimiser reads it while planning
        assertThat(plan("the oldest open incident (gauge)", () -> {
            new OpenIncidentGauges(recorded.jdbc(), 100, new SimpleMeterRegistry(), Clock.systemUTC()).refresh();
            return null;
        })).containsEntry("(planning)", "Select tables optimized away");
    }

    @Test
    void everySecondaryIndexWrittenPerRecordIsOneAQueryReadsAlong() {
        Set<String> indexes = new LinkedHashSet<>(jdbc.queryForList("SELECT DISTINCT index_name FROM information_schema.statistics"
                + " WHERE table_schema = DATABASE() AND table_name IN ('" + String.join("', '", PER_RECORD_TABLES) + "') AND non_unique = 1",
                String.class));
        assertThat(indexes).as("the tables' secondary indexes").isNotEmpty();
        theListReadsEachFilterAlongItsOwnIndex();
        oneIncidentItsHistoryAndABulkSelectionReadByKey();
        theAuditTheAsOfReportAndTheOldestOpenIncidentReadAlongTime();
        Set<String> read = new LinkedHashSet<>();
        used.values().forEach(read::addAll);
        assertThat(read).as("indexes the queries read along (by query: %s)", used).containsAll(indexes);
    }

    private static Object list(ListIncidentsQuery query) throws ExecutionException, InterruptedException {
        return queries.query(new GenericQueryMessage<>(query, ResponseTypes.instanceOf(Object.class))).get();
    }

    /**
     * The index each table is read along in the statements {@code query} sends, by table (the first one where a table is read
     * twice; what the optimiser says under "(planning)" where it answered without reading a table); kept under {@code name}
     * for the last test.
     */
    private static Map<String, String> plan(String name, Callable query) {
        recorded.clear();
        try {
            Object answer = query.call();
            if (answer instanceof java.util.concurrent.Future<?> future) {
                future.get();
            }
        } catch (Exception e) {
            throw new AssertionError(name + " failed", e);
        }
        Map<String, String> keys = new LinkedHashMap<>();
        Set<String> all = new LinkedHashSet<>();
        List<String> fullScans = new ArrayList<>();
        for (Recorded.Sent statement : recorded.statements()) {
            if (!statement.sql().startsWith("SELECT")) {
                continue;
            }
            jdbc.query("EXPLAIN " + statement.sql(), row -> {
                String table = row.getString("table");
                String key = row.getString("key");
                if (table != null && PER_RECORD_TABLES.contains(table) && "ALL".equals(row.getString("type"))) {
                    fullScans.add(table + " in " + statement.sql());
                }
                if (table != null && key != null) {
                    keys.putIfAbsent(table, key);
                    all.add(key);
                } else if (table == null) {
                    keys.putIfAbsent("(planning)", row.getString("Extra"));
                }
            }, statement.values().toArray());
        }
        assertThat(recorded.statements()).as(name + ": statements sent").isNotEmpty();
        assertThat(fullScans).as(name + ": tables read whole").isEmpty();
        used.computeIfAbsent(name, ignored -> new LinkedHashSet<>()).addAll(all);
        return keys;
    }

    @FunctionalInterface
    private interface Callable {
        Object call() throws Exception;
    }

    /**
     * 20,000 incidents spread as a DLQ is: 40 topics, 30 consumer groups, 50 exception groups, most incidents resolved (70 %),
     * 20 % open, 8 % acknowledged, 2 % discarded; each with an eventId and a key, two history rows (its opening, and an
     * operator's action on three in ten) and a status interval. Written with SQL (a cross join of digits, which MySQL and
     * MariaDB both run), then analysed, so the optimiser sees what a real table holds.
     */
    private static void fill() {
        String numbers = "(SELECT a.d + 10 * b.d + 100 * c.d + 1000 * e.d + 10000 * f.d AS n FROM " + digits("a") + " CROSS JOIN " + digits("b")
                + " CROSS JOIN " + digits("c") + " CROSS JOIN " + digits("e") + " CROSS JOIN " + digits("f") + ") numbers WHERE n < " + INCIDENTS;
        String status = "CASE WHEN n % 100 < 70 THEN 'RESOLVED' WHEN n % 100 < 90 THEN 'OPEN' WHEN n % 100 < 98 THEN 'ACKED' ELSE 'DISCARDED' END";
        String detected = "TIMESTAMPADD(MINUTE, n, '2026-01-01 00:00:00')";
        jdbc.update("INSERT INTO incident_summary (incident_id, topic, partition_no, record_offset, consumer_group, status, detected_at,"
                + " exception_class, exception_group, event_id, key_sha256, dlq_topic, dlq_partition, dlq_offset)"
                + " SELECT CONCAT('inc-', LPAD(n, 32, '0')), CONCAT('topic-', n % 40), n % 6, n, CONCAT('group-', n % 30), " + status + ", "
                + detected + ", 'com.example.Failure', LOWER(LPAD(HEX(n % 50), 16, '0')), CONCAT('evt-', n),"
                + " SHA2(CONCAT('key-', n), 256), 'orders.DLT', 0, n FROM " + numbers);
        jdbc.update("INSERT INTO incident_history (incident_id, seq, event_type, occurred_at, principal, reason)"
                + " SELECT CONCAT('inc-', LPAD(n, 32, '0')), 0, 'IncidentOpened', " + detected + ", NULL, NULL FROM " + numbers);
        jdbc.update("INSERT INTO incident_history (incident_id, seq, event_type, occurred_at, principal, reason)"
                + " SELECT CONCAT('inc-', LPAD(n, 32, '0')), 1, 'IncidentResolved', TIMESTAMPADD(MINUTE, n + 10, '2026-01-01 00:00:00'),"
                + " CONCAT('operator-', n % 7), 'fixed upstream' FROM " + numbers + " AND n % 10 < 3");
        jdbc.update("INSERT INTO incident_status_interval (incident_id, seq, status, valid_from, valid_to, topic, partition_no, record_offset,"
                + " consumer_group) SELECT CONCAT('inc-', LPAD(n, 32, '0')), 0, " + status + ", (" + T0.getEpochSecond() + " + 60 * n) * 1000000000, "
                + Long.MAX_VALUE + ", CONCAT('topic-', n % 40), n % 6, n, CONCAT('group-', n % 30) FROM " + numbers);
        for (String table : PER_RECORD_TABLES) {
            jdbc.queryForList("ANALYZE TABLE " + table);
        }
    }

    private static String digits(String alias) {
        return "(SELECT 0 AS d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5"
                + " UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9) " + alias;
    }

    private static String incident(int n) {
        return "inc-" + String.format("%032d", n);
    }

    private static String exceptionGroup(int n) {
        return String.format("%016x", n);
    }

    /** The statements sent through a data source, with the values bound to them, as the driver got them. */
    private static final class Recorded {
        record Sent(String sql, List<Object> values) {
        }

        private final List<Sent> statements = new ArrayList<>();
        private DataSource recording;

        DataSource over(DataSource target) {
            recording = new DelegatingDataSource(target) {
                @Override
                public Connection getConnection() throws SQLException {
                    return connection(super.getConnection());
                }
            };
            return recording;
        }

        JdbcTemplate jdbc() {
            return new JdbcTemplate(recording);
        }

        synchronized void clear() {
            statements.clear();
        }

        synchronized List<Sent> statements() {
            return List.copyOf(statements);
        }

        private synchronized void add(Sent statement) {
            statements.add(statement);
        }

        private Connection connection(Connection target) {
            return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                Object result = invoke(target, method, args);
                if (method.getName().equals("prepareStatement") && result instanceof PreparedStatement prepared) {
                    return statement(prepared, (String) args[0]);
                }
                if (method.getName().equals("createStatement") && result instanceof Statement plain) {
                    return statement(plain);
                }
                return result;
            });
        }

        private PreparedStatement statement(PreparedStatement target, String sql) {
            Map<Integer, Object> values = new TreeMap<>();
            return (PreparedStatement) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {PreparedStatement.class},
                    (proxy, method, args) -> {
                        if (method.getName().startsWith("set") && args != null && args.length >= 2 && args[0] instanceof Integer index) {
                            values.put(index, method.getName().equals("setNull") ? null : args[1]);
                        }
                        if (method.getName().startsWith("execute")) {
                            add(new Sent(sql.trim(), new ArrayList<>(values.values())));
                        }
                        return invoke(target, method, args);
                    });
        }

        /** A statement without values: its SQL comes with each execute. */
        private Statement statement(Statement target) {
            return (Statement) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Statement.class}, (proxy, method, args) -> {
                if (method.getName().startsWith("execute") && args != null && args.length > 0 && args[0] instanceof String sql) {
                    add(new Sent(sql.trim(), List.of()));
                }
                return invoke(target, method, args);
            });
        }

        private static Object invoke(Object target, java.lang.reflect.Method method, Object[] args) throws Throwable {
            try {
                return method.invoke(target, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }
    }
}

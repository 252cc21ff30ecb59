package io.dlqdesk.projections.incident;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.jdbc.core.JdbcTemplate;

import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The export's read on the real database through a real pool (HikariCP, as the service runs it, two connections): it
 * hands over exactly the rows it counted, from one snapshot; a read its sink or its deadline ends stops its statement on
 * the server at once and gives the connection back whole, with no kill left pending for the next statement on it.
 */
@RealInfrastructure
class IncidentSummaryExportIT {

    private static final ExportIncidentsQuery ALL = new ExportIncidentsQuery(null, null, null, null, null, null, null, null);
    private static final Duration MINUTE = Duration.ofMinutes(1);

    private static HikariDataSource pool;
    private static JdbcTemplate jdbc;
    private static IncidentSummaryTable table;
    private static IncidentSummaryExport export;
    private static String databaseName;

    @BeforeAll
    static void migrate(TestDatabase database) {
        Flyway.configure().dataSource(database.jdbcUrl(), database.username(), database.password())
                .locations("classpath:db/migration/it-axon", "classpath:db/migration/projections").outOfOrder(true).load().migrate();
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(database.jdbcUrl());
        config.setUsername(database.username());
        config.setPassword(database.password());
        config.setMaximumPoolSize(2);
        pool = new HikariDataSource(config);
        jdbc = new JdbcTemplate(pool);
        table = new IncidentSummaryTable(jdbc);
        export = new IncidentSummaryExport(table);
        databaseName = database.name();
        jdbc.execute("CREATE TABLE IF NOT EXISTS export_digits (d INT PRIMARY KEY)");
        jdbc.execute("INSERT IGNORE INTO export_digits VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9)");
    }

    @AfterAll
    static void close() {
        pool.close();
    }

    @BeforeEach
    void empty() {
        table.deleteAll();
    }

    @Test
    void theCountedRowsAreHandedOverNewestFirstFromOneSnapshot() throws IOException {
        rows(0, 1_000);
        List<IncidentSummaryView> handed = new ArrayList<>();
        long[] counted = {-1};

        long read = export.read(ALL, MINUTE, new IncidentSink() {
            @Override
            public void begin(long incidents) {
                counted[0] = incidents;
                rows(1_000, 10); // committed by another connection after the count: not in this export
            }

            @Override
            public void accept(IncidentSummaryView incident) {
                handed.add(incident);
            }
        });

        assertThat(counted[0]).isEqualTo(1_000);
        assertThat(read).isEqualTo(1_000);
        assertThat(handed).usingRecursiveFieldByFieldElementComparator().containsExactlyElementsOf(
                // the list now: the ten added later are the newest, ahead of the thousand the export read
                table.rows(filter(), IncidentSummaryTable.Order.NEWEST_FIRST, 10, 1_000).stream().map(SummaryRow::toView).toList());
        assertThat(table.count(filter())).isEqualTo(1_010);
    }

    @Test
    void aSinkThatGoesAwayStopsTheStatementAtOnceAndTheConnectionStaysWhole() throws Exception {
        rows(0, 100_000); // tens of megabytes: far more than the socket buffers hold, so the statement still runs when stopped
        long started = System.nanoTime();

        assertThatThrownBy(() -> export.read(ALL, MINUTE, failingAfter(100, new IOException("client went away"))))
                .isInstanceOf(IOException.class).hasMessage("client went away");

        assertThat(Duration.ofNanos(System.nanoTime() - started)).as("stopped, not read to its end").isLessThan(Duration.ofSeconds(2));
        assertThat(exportStatementsRunning()).isZero();
        assertThat(pool.getHikariPoolMXBean().getActiveConnections()).isZero();
        assertEveryPooledConnectionRunsItsNextStatement();
        assertThat(export.read(ALL, MINUTE, counting())).isEqualTo(100_000);
    }

    @Test
    void aSinkThatGoesAwayAfterTheServerSentEverythingLeavesNoKillPendingOnTheConnection() throws Exception {
        rows(0, 3);

        assertThatThrownBy(() -> export.read(ALL, MINUTE, failingAfter(1, new IOException("client went away")))).isInstanceOf(IOException.class);

        assertEveryPooledConnectionRunsItsNextStatement();
        for (int i = 0; i < 5; i++) {
            assertThat(export.read(ALL, MINUTE, counting())).isEqualTo(3);
        }
    }

    @Test
    void aReadPastItsDeadlineEndsWithAQueryTimeoutAndFreesItsConnection() throws Exception {
        rows(0, 10_000);

        assertThatThrownBy(() -> export.read(ALL, Duration.ofNanos(1), counting())).isInstanceOf(QueryTimeoutException.class)
                .hasMessageContaining("did not end within");

        assertThat(exportStatementsRunning()).isZero();
        assertThat(pool.getHikariPoolMXBean().getActiveConnections()).isZero();
        assertEveryPooledConnectionRunsItsNextStatement();
    }

    @Test
    void aRefusalAtTheCountReadsNoRow() {
        rows(0, 10);
        List<IncidentSummaryView> handed = new ArrayList<>();

        assertThatThrownBy(() -> export.read(ALL, MINUTE, new IncidentSink() {
            @Override
            public void begin(long incidents) {
                throw new IllegalStateException("too many: " + incidents);
            }

            @Override
            public void accept(IncidentSummaryView incident) {
                handed.add(incident);
            }
        })).hasMessage("too many: 10");
        assertThat(handed).isEmpty();
        assertThat(pool.getHikariPoolMXBean().getActiveConnections()).isZero();
    }

    private static IncidentSummaryTable.Filter filter() {
        return new IncidentSummaryTable.Filter(null, null, null, null, null, null, null, null);
    }

    private static IncidentSink counting() {
        return new IncidentSink() {
            @Override
            public void begin(long incidents) {
            }

            @Override
            public void accept(IncidentSummaryView incident) {
            }
        };
    }

    private static IncidentSink failingAfter(int rows, IOException failure) {
        return new IncidentSink() {
            private int handed;

            @Override
            public void begin(long incidents) {
            }

            @Override
            public void accept(IncidentSummaryView incident) throws IOException {
                if (++handed > rows) {
                    throw failure;
                }
            }
        };
    }

    /** Both connections of the pool at once, each running a statement: none was left with a kill to take. */
    private static void assertEveryPooledConnectionRunsItsNextStatement() throws Exception {
        try (Connection first = pool.getConnection(); Connection second = pool.getConnection()) {
            for (Connection connection : List.of(first, second)) {
                try (Statement statement = connection.createStatement(); ResultSet one = statement.executeQuery("SELECT 1")) {
                    assertThat(one.next()).isTrue();
                    assertThat(connection.getAutoCommit()).as("given back as the pool hands connections out").isTrue();
                    assertThat(connection.isReadOnly()).isFalse();
                }
            }
        }
    }

    private static int exportStatementsRunning() {
        Integer running = jdbc.queryForObject("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE DB = ? AND INFO LIKE ?", Integer.class,
                databaseName, "SELECT incident_id, topic%FROM incident_summary ORDER BY%");
        return running == null ? 0 : running;
    }

    /** {@code count} rows numbered from {@code from}, straight into the table, as the projection would write them. */
    private static void rows(int from, int count) {
        for (int block = 0; block * 10_000 < count; block++) {
            int size = Math.min(10_000, count - block * 10_000);
            jdbc.update("INSERT INTO incident_summary (incident_id, topic, partition_no, record_offset, consumer_group, status, detected_at,"
                    + " exception_class, exception_group, exception_fingerprint, failure_count, attempt_count, event_id, key_sha256, dlq_topic,"
                    + " dlq_partition, dlq_offset, dlq_dialect)"
                    + " SELECT CONCAT('inc-', LPAD(LOWER(HEX(n)), 32, '0')), 'orders', n % 3, n, 'billing', 'OPEN',"
                    + " TIMESTAMP('2026-01-01 00:00:00') + INTERVAL n SECOND, 'com.example.PriceMissingException', '0123456789abcdef',"
                    + " REPEAT('no price for order <n> ', 10), 1, 0, CONCAT('evt-', n), SHA2(n, 256), 'orders.dlq', 0, n, 'SPRING'"
                    + " FROM (SELECT ? + a.d + 10 * b.d + 100 * c.d + 1000 * e.d AS n FROM export_digits a, export_digits b, export_digits c,"
                    + " export_digits e) numbers WHERE n < ?", from + block * 10_000, from + block * 10_000 + size);
        }
    }
}

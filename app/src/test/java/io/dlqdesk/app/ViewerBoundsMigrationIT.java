package io.dlqdesk.app;

import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Upgrading a database the last version wrote: an incident's duplicate-delivery rows collapse in place into the one row
 * the projection now writes (no rebuild), and the quarantine's rows get their sizes. On the real database, from the
 * schema as the last version left it (the migrations up to V200 for the quarantine, V451 for the history).
 */
@RealInfrastructure
class ViewerBoundsMigrationIT {

    private static TestDatabase database;
    private static SingleConnectionDataSource connection;
    private static JdbcTemplate jdbc;

    @BeforeAll
    static void connect(TestDatabase testDatabase) {
        database = testDatabase;
        connection = new SingleConnectionDataSource(database.jdbcUrl(), database.username(), database.password(), true);
        jdbc = new JdbcTemplate(connection);
    }

    @AfterAll
    static void disconnect() {
        connection.destroy();
    }

    @Test
    void duplicateRowsCollapseIntoTheFirstWithTheirCountAndTheLastOnesRecordAndOtherRowsStay() {
        flyway().cleanDisabled(false).load().clean();
        // the quarantine as it stood before V201, then the history as it stood before V460
        flyway().target("200").load().migrate();
        jdbc.update("INSERT INTO dlq_quarantine (dlq_topic, dlq_partition, dlq_offset, record_timestamp, reason, headers_json, record_key,"
                + " record_value, quarantined_at) VALUES ('o.dlq', 0, 5, 0, 'r', '[]', ?, NULL, '2026-12-01 10:00:00')", "key".getBytes(StandardCharsets.UTF_8));
        flyway().target("451").load().migrate();
        history("inc-a", 0, "IncidentOpened", "opened", 10);
        history("inc-a", 1, "DuplicateDeliveryRecorded", "again 11", 11);
        history("inc-a", 2, "IncidentAcknowledged", "ACKED", null);
        history("inc-a", 3, "DuplicateDeliveryRecorded", "again 13", 13);
        history("inc-a", 4, "DuplicateDeliveryRecorded", "again 14", 14);
        history("inc-b", 0, "IncidentOpened", "opened", 20);
        history("inc-b", 1, "DuplicateDeliveryRecorded", "again 21", 21);

        flyway().load().migrate();

        List<Map<String, Object>> a = jdbc.queryForList("SELECT seq, event_type, detail, dlq_offset, deliveries, last_seq, collapsed"
                + " FROM incident_history WHERE incident_id = 'inc-a' ORDER BY seq");
        assertThat(a).extracting(row -> ((Number) row.get("seq")).longValue()).containsExactly(0L, 1L, 2L);
        Map<String, Object> duplicates = a.get(1);
        assertThat(((Number) duplicates.get("deliveries")).intValue()).isEqualTo(3);
        assertThat(((Number) duplicates.get("last_seq")).longValue()).isEqualTo(4);
        assertThat(duplicates.get("detail")).isEqualTo("again 14");
        assertThat(((Number) duplicates.get("dlq_offset")).longValue()).isEqualTo(14);
        assertThat(((Number) duplicates.get("collapsed")).intValue()).isEqualTo(1);
        // the allowed side: every other row as it was, counting itself
        assertThat(((Number) a.get(2).get("deliveries")).intValue()).isEqualTo(1);
        assertThat(((Number) a.get(2).get("last_seq")).longValue()).isEqualTo(2);
        assertThat(a.get(2).get("collapsed")).isNull();
        assertThat(jdbc.queryForObject("SELECT deliveries FROM incident_history WHERE incident_id = 'inc-b' AND seq = 1", Integer.class))
                .isEqualTo(1);

        Map<String, Object> quarantined = jdbc.queryForMap("SELECT headers_bytes, key_bytes, value_bytes FROM dlq_quarantine");
        assertThat(((Number) quarantined.get("headers_bytes")).longValue()).isEqualTo(2);
        assertThat(((Number) quarantined.get("key_bytes")).intValue()).isEqualTo(3);
        assertThat(quarantined.get("value_bytes")).isNull();
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = DATABASE()"
                + " AND table_name = 'v460_duplicates'", Long.class)).as("the migration's own table, dropped").isZero();
    }

    private static void history(String incident, long seq, String type, String detail, Integer dlqOffset) {
        jdbc.update("INSERT INTO incident_history (incident_id, seq, event_type, occurred_at, detail, dlq_topic, dlq_partition, dlq_offset)"
                        + " VALUES (?, ?, ?, '2026-12-01 10:00:00', ?, ?, ?, ?)", incident, seq, type, detail, dlqOffset == null ? null : "o.dlq",
                dlqOffset == null ? null : 0, dlqOffset);
    }

    /** The migrations as the service runs them (application.yml's locations, out of order). */
    private static FluentConfiguration flyway() {
        return Flyway.configure().dataSource(database.jdbcUrl(), database.username(), database.password())
                .locations("classpath:db/migration/axon", "classpath:db/migration/ingest", "classpath:db/migration/replay",
                        "classpath:db/migration/projections", "classpath:db/migration/notifications", "classpath:db/migration/parked")
                .outOfOrder(true);
    }
}

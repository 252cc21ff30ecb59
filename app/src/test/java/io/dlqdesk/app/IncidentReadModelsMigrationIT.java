package io.dlqdesk.app;

import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Upgrading a database written by the version with a processor per read model (the list, the history, the as-of) to
 * the one processor that runs all three: where the three stopped at the same tokens it goes on from there and keeps
 * the rows; otherwise the three read models are emptied and rebuilt from the first event. On the real database, from
 * the schema as the last version left it (the migrations up to V432).
 */
@RealInfrastructure
class IncidentReadModelsMigrationIT {

    private static final List<String> OLD_PROCESSORS = List.of("incident-summary", "incident-history", "incident-as-of");
    private static final List<String> READ_MODEL_TABLES = List.of("incident_summary", "incident_count", "exception_group",
            "incident_history", "incident_status_interval");
    private static final String TOKEN_TYPE = "org.axonframework.eventhandling.GapAwareTrackingToken";

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

    /** Each test upgrades its own copy of the last version's schema, with a row in each of the three read models' tables. */
    @BeforeEach
    void lastVersionsSchema() {
        flyway().cleanDisabled(false).load().clean();
        flyway().target("432").load().migrate();
        READ_MODEL_TABLES.forEach(IncidentReadModelsMigrationIT::insertOneRow);
        token("rollback-facts", 0, "{\"index\":7,\"gaps\":[]}");
    }

    @Test
    void processorsStoppedAtTheSameTokensAreCarriedOverAndNothingIsRebuilt() {
        for (String processor : OLD_PROCESSORS) {
            token(processor, 0, "{\"index\":42,\"gaps\":[40]}");
            token(processor, 1, "{\"index\":42,\"gaps\":[40]}");
        }

        flyway().load().migrate();

        assertThat(tokens()).containsOnly(
                Map.entry("incident-read-models/0", "{\"index\":42,\"gaps\":[40]}"),
                Map.entry("incident-read-models/1", "{\"index\":42,\"gaps\":[40]}"),
                Map.entry("rollback-facts/0", "{\"index\":7,\"gaps\":[]}"));
        READ_MODEL_TABLES.forEach(table -> assertThat(rows(table)).as(table).isEqualTo(1));
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = DATABASE()"
                + " AND table_name = 'v440_carried_token'", Long.class)).as("the migration's own table, dropped").isZero();
    }

    @Test
    void aProcessorBehindTheOthersMakesTheThreeRebuildFromTheFirstEvent() {
        for (String processor : OLD_PROCESSORS) {
            token(processor, 0, "{\"index\":42,\"gaps\":[]}");
            token(processor, 1, processor.equals("incident-history") ? "{\"index\":41,\"gaps\":[]}" : "{\"index\":42,\"gaps\":[]}");
        }

        flyway().load().migrate();

        assertThat(tokens()).containsOnly(Map.entry("rollback-facts/0", "{\"index\":7,\"gaps\":[]}"));
        READ_MODEL_TABLES.forEach(table -> assertThat(rows(table)).as(table).isZero());
    }

    @Test
    void aProcessorWithMoreSegmentsThanTheOthersMakesTheThreeRebuildFromTheFirstEvent() {
        for (String processor : OLD_PROCESSORS) {
            token(processor, 0, "{\"index\":42,\"gaps\":[]}");
            token(processor, 1, "{\"index\":42,\"gaps\":[]}");
        }
        token("incident-as-of", 2, "{\"index\":42,\"gaps\":[]}");

        flyway().load().migrate();

        assertThat(tokens()).containsOnly(Map.entry("rollback-facts/0", "{\"index\":7,\"gaps\":[]}"));
        READ_MODEL_TABLES.forEach(table -> assertThat(rows(table)).as(table).isZero());
    }

    /** The migrations as the service runs them (application.yml's locations, out of order). */
    private static FluentConfiguration flyway() {
        return Flyway.configure().dataSource(database.jdbcUrl(), database.username(), database.password())
                .locations("classpath:db/migration/axon", "classpath:db/migration/ingest", "classpath:db/migration/replay",
                        "classpath:db/migration/projections", "classpath:db/migration/notifications", "classpath:db/migration/parked")
                .outOfOrder(true);
    }

    private static void token(String processor, int segment, String token) {
        jdbc.update("INSERT INTO token_entry (processor_name, segment, token, token_type, timestamp, owner) VALUES (?, ?, ?, ?, ?, NULL)",
                processor, segment, token.getBytes(StandardCharsets.UTF_8), TOKEN_TYPE, "2026-12-01T10:00:00Z");
    }

    private static Map<String, String> tokens() {
        Map<String, String> tokens = new TreeMap<>();
        jdbc.query("SELECT processor_name, segment, token FROM token_entry WHERE processor_name NOT LIKE '\\_\\_%'", row -> {
            tokens.put(row.getString(1) + "/" + row.getInt(2), new String(row.getBytes(3), StandardCharsets.UTF_8));
        });
        return tokens;
    }

    private static long rows(String table) {
        return jdbc.queryForObject("SELECT COUNT(*) FROM " + table, Long.class);
    }

    /** A row with a value in every column that needs one: which values does not matter to the migration, only that rows exist. */
    private static void insertOneRow(String table) {
        List<Map<String, Object>> required = jdbc.queryForList("SELECT column_name, data_type FROM information_schema.columns"
                + " WHERE table_schema = DATABASE() AND table_name = ? AND is_nullable = 'NO' AND column_default IS NULL"
                + " AND extra NOT LIKE '%auto_increment%' AND extra NOT LIKE '%GENERATED%' ORDER BY ordinal_position", table);
        List<String> columns = required.stream().map(column -> (String) column.get("column_name")).toList();
        List<Object> values = required.stream().map(column -> value((String) column.get("data_type"))).toList();
        jdbc.update("INSERT INTO " + table + " (" + String.join(", ", columns) + ") VALUES ("
                + String.join(", ", columns.stream().map(column -> "?").toList()) + ")", values.toArray());
        assertThat(rows(table)).as(table).isEqualTo(1);
    }

    private static Object value(String dataType) {
        return switch (dataType.toLowerCase()) {
            case "tinyint", "smallint", "int", "bigint", "decimal" -> 1;
            case "date", "datetime", "timestamp" -> "2026-12-01 10:00:00";
            default -> "x";
        };
    }
}

package io.dlqdesk.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dlqdesk.projections.ProjectionsConfiguration;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.jdbc.core.JdbcTemplate;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The service killed -9 in the middle of a bulk rebuild's load: the live read model tables are exactly as they were, and
 * after a restart the dead instance's rebuild is ended as interrupted (once its lease ran out), its shadow tables dropped,
 * and a new rebuild completes, leaving the same rows.
 */
@RealInfrastructure
class RebuildKillIT {

    @RegisterExtension
    final FaultRun run = new FaultRun("rbkill");

    private static final int INCIDENTS = 300;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String START = "{\"processor\":\"" + ProjectionsConfiguration.INCIDENT_READ_MODELS + "\",\"reason\":\"kill test\"}";

    @Test
    void killedWhileLoadingTheLiveTablesStayAsTheyWereAndANewRebuildCompletes(TestDatabase database, KafkaBroker broker) throws Exception {
        Failed failed = failed(database, broker);
        String source = failed.source();
        Map<String, Object> settings = failed.settings();
        JdbcTemplate jdbc = failed.jdbc();
        String shadowSchema = failed.shadowSchema();

        Map<String, List<Map<String, Object>>> before;
        String killed;
        try (ServiceProcess first = ServiceProcess.start("rebuild-kill-first", settings)) {
            first.awaitReady(FaultRun.START);
            await().atMost(Duration.ofMinutes(2)).until(() -> FaultRuns.count(jdbc, "SELECT COUNT(*) FROM incident_summary WHERE topic = ?", source)
                    == INCIDENTS);
            before = stable(jdbc);
            // its first progress report after a chunk is in the shadow tables waits here: kill then
            jdbc.execute("CREATE TRIGGER it_stall_rebuild BEFORE UPDATE ON read_model_rebuild FOR EACH ROW BEGIN "
                    + "IF NEW.phase = 'LOADING' AND NEW.events_read > 0 THEN SET @it_slept = SLEEP(120); END IF; END");
            HttpResponse<String> started = first.post("/api/v1/read-model-rebuilds", "admin", START);
            assertThat(started.statusCode()).as(started.body()).isEqualTo(202);
            killed = JSON.readTree(started.body()).path("id").asText();
            await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(50)).until(() -> FaultRuns.count(jdbc,
                    "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE STATE = 'User sleep' AND (INFO LIKE '%it_slept%' OR INFO LIKE '%read_model_rebuild%')") > 0);
            assertThat(FaultRuns.count(jdbc, "SELECT COUNT(*) FROM " + shadowSchema + ".incident_summary")).as("mid-load").isPositive();
            first.kill();
        }
        for (Long session : jdbc.queryForList("SELECT ID FROM information_schema.PROCESSLIST WHERE STATE = 'User sleep'"
                + " AND (INFO LIKE '%it_slept%' OR INFO LIKE '%read_model_rebuild%')", Long.class)) {
            jdbc.execute("KILL " + session);
        }
        jdbc.execute("DROP TRIGGER it_stall_rebuild");
        assertThat(withoutAudit(ReadModelTables.snapshot(jdbc))).as("the live tables after the kill").isEqualTo(withoutAudit(before));

        try (ServiceProcess second = ServiceProcess.start("rebuild-kill-second", settings)) {
            second.awaitReady(FaultRun.START);
            // refused while the dead instance's lease holds, then the interrupted rebuild is ended and a new one starts
            AtomicReference<String> again = new AtomicReference<>();
            await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(2)).until(() -> {
                HttpResponse<String> answer = second.post("/api/v1/read-model-rebuilds", "admin", START);
                assertThat(answer.statusCode()).as(answer.body()).isIn(202, 409);
                if (answer.statusCode() == 202) {
                    again.set(JSON.readTree(answer.body()).path("id").asText());
                }
                return again.get() != null;
            });
            JsonNode interrupted = JSON.readTree(second.get("/api/v1/read-model-rebuilds/" + killed, "viewer").body());
            assertThat(interrupted.path("phase").asText()).as(interrupted.toString()).isEqualTo("FAILED");
            assertThat(interrupted.path("failure").asText()).contains("interrupted in LOADING");
            JsonNode done = await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(500)).until(
                    () -> JSON.readTree(second.get("/api/v1/read-model-rebuilds/" + again.get(), "viewer").body()),
                    view -> view.path("phase").asText().matches("COMPLETED|FAILED|CANCELLED"));
            assertThat(done.path("phase").asText()).as(done.toString()).isEqualTo("COMPLETED");
            assertThat(withoutAudit(stable(jdbc))).as("the rebuilt tables").isEqualTo(withoutAudit(before));
            for (String rebuild : List.of(killed, again.get())) {
                assertThat(FaultRuns.count(jdbc, "SELECT COUNT(*) FROM admin_action WHERE action = 'ReadModelRebuildRequested' AND detail LIKE ?",
                        "%" + rebuild + "%")).as("audited: " + rebuild).isEqualTo(1);
            }
            assertThat(FaultRuns.count(jdbc, "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = ?", shadowSchema))
                    .as("nothing left in the shadow schema").isZero();
        }
    }

    /**
     * Killed between storing the swap's tokens and the rename (the rename waits for a lock this test holds, and the test ends
     * it with the process): the next start finishes the rename before its processors run, and they go on from the stored
     * position on the rebuilt tables.
     */
    @Test
    void killedBeforeItsRenameTheSwapIsFinishedAtTheNextStart(TestDatabase database, KafkaBroker broker) throws Exception {
        Failed failed = failed(database, broker);
        String source = failed.source();
        Map<String, Object> settings = failed.settings();
        JdbcTemplate jdbc = failed.jdbc();
        String shadowSchema = failed.shadowSchema();

        Map<String, List<Map<String, Object>>> before;
        String swapped;
        try (ServiceProcess first = ServiceProcess.start("rebuild-swap-kill-first", settings);
             java.sql.Connection holder = jdbc.getDataSource().getConnection()) {
            first.awaitReady(FaultRun.START);
            await().atMost(Duration.ofMinutes(2)).until(() -> FaultRuns.count(jdbc, "SELECT COUNT(*) FROM incident_summary WHERE topic = ?", source)
                    == INCIDENTS);
            before = stable(jdbc);
            // a reader's open transaction on one of the tables: the rename waits for it
            holder.setAutoCommit(false);
            try (java.sql.Statement read = holder.createStatement()) {
                read.executeQuery("SELECT COUNT(*) FROM incident_status_interval").close();
            }
            HttpResponse<String> started = first.post("/api/v1/read-model-rebuilds", "admin", START);
            assertThat(started.statusCode()).as(started.body()).isEqualTo(202);
            swapped = JSON.readTree(started.body()).path("id").asText();
            await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(50)).until(() -> FaultRuns.count(jdbc,
                    "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE INFO LIKE 'RENAME TABLE%'") > 0);
            assertThat(jdbc.queryForObject("SELECT phase FROM read_model_rebuild WHERE rebuild_id = ?", String.class, swapped)).isEqualTo("SWAPPING");
            first.kill();
            for (Long session : jdbc.queryForList("SELECT ID FROM information_schema.PROCESSLIST WHERE INFO LIKE 'RENAME TABLE%'", Long.class)) {
                jdbc.execute("KILL " + session);
            }
            holder.rollback();
        }
        assertThat(FaultRuns.count(jdbc, "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = ? AND table_name = 'incident_summary'",
                shadowSchema)).as("not renamed yet").isEqualTo(1);

        try (ServiceProcess second = ServiceProcess.start("rebuild-swap-kill-second", settings)) {
            second.awaitReady(FaultRun.START);
            JsonNode done = JSON.readTree(second.get("/api/v1/read-model-rebuilds/" + swapped, "viewer").body());
            assertThat(done.path("phase").asText()).as(done.toString()).isEqualTo("COMPLETED");
            assertThat(FaultRuns.count(jdbc, "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = ?", shadowSchema))
                    .as("nothing left in the shadow schema").isZero();
            assertThat(withoutAudit(stable(jdbc))).as("the rebuilt tables").isEqualTo(withoutAudit(before));
            // the processor goes on from where the rebuilt tables are
            String more = run.topic("more");
            IngestLedger.createTopic(broker, more, 2, Map.of());
            FaultRuns.replayableFailures(broker, more, run.dlqTopic(), "orders-service", 20);
            await().atMost(Duration.ofMinutes(2)).until(() -> FaultRuns.count(jdbc, "SELECT COUNT(*) FROM incident_summary WHERE topic = ?", more)
                    == 20);
        }
    }

    /** The run's DLQ records, the service's settings and the database, before any service started. */
    private record Failed(String source, Map<String, Object> settings, JdbcTemplate jdbc, String shadowSchema) {
    }

    /** {@value #INCIDENTS} source records failed once and dead-lettered to the run's DLQ topic. */
    private Failed failed(TestDatabase database, KafkaBroker broker) throws Exception {
        String source = run.topic("orders");
        IngestLedger.createTopic(broker, source, 2, Map.of());
        IngestLedger.createTopic(broker, run.dlqTopic(), 2, Map.of());
        FaultRuns.replayableFailures(broker, source, run.dlqTopic(), "orders-service", INCIDENTS);
        JdbcTemplate jdbc = FaultRuns.jdbc(database);
        return new Failed(source, FaultRuns.service(database, broker, run, Map.of()), jdbc,
                jdbc.queryForObject("SELECT DATABASE()", String.class) + "_rebuild");
    }

    /** The tables once two reads a second apart agree: the processors have handled what there was. */
    private static Map<String, List<Map<String, Object>>> stable(JdbcTemplate jdbc) {
        AtomicReference<Map<String, List<Map<String, Object>>>> last = new AtomicReference<>(ReadModelTables.snapshot(jdbc));
        await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofSeconds(1)).until(() -> {
            Map<String, List<Map<String, Object>>> now = ReadModelTables.snapshot(jdbc);
            return now.equals(last.getAndSet(now));
        });
        return last.get();
    }

    /** The audit rows of the rebuilds themselves are the difference a rebuild request makes. */
    private static Map<String, List<Map<String, Object>>> withoutAudit(Map<String, List<Map<String, Object>>> tables) {
        Map<String, List<Map<String, Object>>> rest = new java.util.LinkedHashMap<>(tables);
        rest.remove("admin_action");
        return rest;
    }
}

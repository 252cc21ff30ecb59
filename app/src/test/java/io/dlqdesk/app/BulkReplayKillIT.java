package io.dlqdesk.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.jdbc.core.JdbcTemplate;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A bulk replay job on the service as users run it, killed -9 in the middle of storing a round of claims, requests and
 * answers: after a restart the job resumes (on the new process, once the dead one's claim on the work list timed out) and
 * completes, and every selected incident was requested exactly once (one ReplayRequested in its history). Unlike publishing
 * (at least once), requesting is a correctness contract: an incident asked twice would be replayed twice.
 */
@RealInfrastructure
class BulkReplayKillIT {

    @RegisterExtension
    final FaultRun run = new FaultRun("jkill");

    private static final int INCIDENTS = 300;
    private static final String GROUP = "orders-service";
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void killedWhileRecordingAnswersTheJobResumesAndEveryIncidentIsRequestedExactlyOnce(TestDatabase database, KafkaBroker broker)
            throws Exception {
        String source = run.topic("orders");
        String dlqTopic = run.dlqTopic();
        IngestLedger.createTopic(broker, source, 2, Map.of());
        IngestLedger.createTopic(broker, dlqTopic, 2, Map.of());
        Map<String, String> eventIds = FaultRuns.replayableFailures(broker, source, dlqTopic, GROUP, INCIDENTS);
        List<String> incidents = List.copyOf(eventIds.keySet());
        Map<String, Object> settings = FaultRuns.service(database, broker, run, Map.of("dlqdesk.replay.poll-interval", "100ms"));
        JdbcTemplate jdbc = FaultRuns.jdbc(database);

        String job;
        try (ServiceProcess first = ServiceProcess.start("job-kill-first", settings)) {
            first.awaitReady(FaultRun.START);
            await().atMost(Duration.ofMinutes(2)).until(() -> FaultRuns.count(jdbc, "SELECT COUNT(*) FROM incident_summary WHERE topic = ?", source) == INCIDENTS);
            FaultRuns.replaySwitchOn(first);
            stallJobAnswersAfter(jdbc, INCIDENTS / 3);
            HttpResponse<String> created = first.post("/api/v1/replay-jobs", "operator", "{\"reason\":\"fix deployed\",\"incidentIds\":"
                    + JSON.writeValueAsString(incidents) + ",\"rate\":50,\"maxInFlight\":200}");
            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
            job = JSON.readTree(created.body()).path("jobId").asText();

            // the runner is storing a round (claims, requests and answers in one transaction): kill now
            await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(50)).until(() -> FaultRuns.count(jdbc,
                    "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE STATE = 'User sleep'"
                            + " AND (INFO LIKE '%it_slept%' OR INFO LIKE '%domain_event_entry%')") > 0);
            first.kill();
        }
        // the database does not notice the dead client while the trigger sleeps: end that session, rolling the round back
        for (Long session : jdbc.queryForList("SELECT ID FROM information_schema.PROCESSLIST WHERE STATE = 'User sleep' AND DB = DATABASE()", Long.class)) {
            jdbc.execute("KILL " + session);
        }
        jdbc.update("DELETE FROM it_stall_answers");
        int requestedAtKill = requested(jdbc, incidents);
        int answeredAtKill = FaultRuns.count(jdbc, "SELECT COUNT(*) FROM domain_event_entry WHERE aggregate_identifier = ?"
                + " AND payload_type LIKE '%.JobReplayRequested'", job);
        assertThat(requestedAtKill).as("killed mid-job").isLessThan(INCIDENTS).isPositive();
        assertThat(requestedAtKill).as("a request is stored only with the job's answer to it").isEqualTo(answeredAtKill);

        try (ServiceProcess second = ServiceProcess.start("job-kill-second", settings)) {
            second.awaitReady(FaultRun.START);
            JsonNode done = await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofSeconds(1)).until(() -> {
                HttpResponse<String> view = second.get("/api/v1/replay-jobs/" + job, "viewer");
                return view.statusCode() == 200 ? JSON.readTree(view.body()) : null;
            }, view -> view != null && "COMPLETED".equals(view.path("status").asText()));
            assertThat(done.path("progress").path("requested").asInt()).isEqualTo(INCIDENTS);
            assertThat(done.path("progress").path("refused").asInt()).isZero();
            for (String incident : incidents) {
                assertThat(Replays.eventsIn(jdbc, incident, "ReplayRequested")).as("requests of %s", incident).isEqualTo(1);
            }
            assertThat(Replays.eventsIn(jdbc, job, "JobReplayRequested")).as("answers recorded once each").isEqualTo(INCIDENTS);
            FaultRuns.report("kill -9 mid-job", INCIDENTS, 0, 0, Duration.ZERO, String.format(
                    "killed with %d incidents requested and %d answers recorded; after the restart all %d requested once",
                    requestedAtKill, answeredAtKill, INCIDENTS));
        }
    }

    /** Once {@code answers} of the job's answers are stored, and while a row of it_stall_answers exists, storing another waits 60 s. */
    private static void stallJobAnswersAfter(JdbcTemplate jdbc, int answers) {
        jdbc.execute("CREATE TABLE it_stall_answers (after_answers INT NOT NULL)");
        jdbc.execute("CREATE TRIGGER it_stall_answers BEFORE INSERT ON domain_event_entry FOR EACH ROW BEGIN "
                + "IF NEW.payload_type LIKE '%.JobReplayRequested' AND EXISTS (SELECT 1 FROM it_stall_answers) "
                + "AND (SELECT COUNT(*) FROM domain_event_entry WHERE payload_type LIKE '%.JobReplayRequested') >= "
                + "(SELECT MIN(after_answers) FROM it_stall_answers) THEN SET @it_slept = SLEEP(60); END IF; END");
        jdbc.update("INSERT INTO it_stall_answers VALUES (?)", answers);
    }

    private static int requested(JdbcTemplate jdbc, List<String> incidents) {
        return FaultRuns.count(jdbc, "SELECT COUNT(*) FROM domain_event_entry WHERE payload_type LIKE '%.ReplayRequested' AND aggregate_identifier IN ("
                + String.join(", ", Collections.nCopies(incidents.size(), "?")) + ")", incidents.toArray());
    }
}

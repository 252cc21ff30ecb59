package io.dlqdesk.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Four-eyes for replay jobs on the real stack, with approval required from 3 incidents: a smaller job runs at once; a job
 * of 3 waits AWAITING_APPROVAL, asks nothing and holds the rollback check; its creator (who holds the APPROVER role too)
 * and an operator without it cannot approve it; a second person with APPROVER does, and it runs to its end with both
 * principals and reasons on its events, in its view and on the console's Replay jobs page, where the approver approved it.
 */
@RealInfrastructure
class FourEyesJobIT {

    private static final String NONCE = "foureyes" + System.nanoTime();
    private static final String GROUP = "orders-service";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration WAIT = Duration.ofMinutes(1);

    private static ConfigurableApplicationContext app;
    private static List<String> incidents;

    @BeforeAll
    static void start(TestDatabase database, KafkaBroker broker) throws Exception {
        String source = Replays.ordersTopic(NONCE);
        IngestLedger.createTopic(broker, source, 2, Map.of()); // the failures alternate between two partitions
        IngestLedger.createTopic(broker, source + ".dlq", 1, Map.of());
        incidents = new ArrayList<>(FaultRuns.replayableFailures(broker, source, source + ".dlq", GROUP, 5).keySet());
        Map<String, Object> settings = new HashMap<>(Map.of(
                "dlqdesk.replay.jobs.approval.enabled", "true",
                "dlqdesk.replay.jobs.approval.min-incidents", "3"));
        RunningApp.user(settings, 5, "lead", "OPERATOR,APPROVER");
        RunningApp.user(settings, 6, "approver", "APPROVER");
        app = Replays.service(database, broker, NONCE, settings);
        await().atMost(WAIT).until(() -> Replays.incidentsOf(app, source).size() == 5);
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
    }

    @Test
    void aJobBelowTheSizeRunsAtOnceAndOneAtItWaitsForASecondPersonsApproval() throws Exception {
        JsonNode small = create("lead", incidents.subList(0, 2), "two stragglers");
        assertThat(small.path("status").asText()).isEqualTo("RUNNING");
        await().atMost(WAIT).until(() -> "COMPLETED".equals(job(small.path("jobId").asText()).path("status").asText()));

        JsonNode large = create("lead", incidents.subList(2, 5), "the 14:02 outage");
        String job = large.path("jobId").asText();
        assertThat(large.path("status").asText()).isEqualTo("AWAITING_APPROVAL");
        await().atMost(WAIT).until(() -> "AWAITING_APPROVAL".equals(job(job).path("status").asText()));
        // waits: nothing of it is asked, and it holds a rollback back (it may run at any moment)
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10)).until(() -> requestsOf(incidents.subList(2, 5)) == 0);
        HttpResponse<String> readiness = RunningApp.get(app, "/api/v1/rollback-readiness", "deployer", RunningApp.PASSWORD);
        assertThat(readiness.statusCode()).as(readiness.body()).isEqualTo(409);
        assertThat(readiness.body()).contains("NO_REPLAY_JOB_ACTIVE").contains(job).contains("AWAITING_APPROVAL");

        HttpResponse<String> byCreator = approve(job, "lead", "I checked it myself");
        assertThat(byCreator.statusCode()).as(byCreator.body()).isEqualTo(409);
        assertThat(byCreator.body()).contains("APPROVER_IS_CREATOR");
        HttpResponse<String> byOperator = approve(job, "operator", "looks fine");
        assertThat(byOperator.statusCode()).as("an operator without APPROVER").isEqualTo(403);
        assertThat(requestsOf(incidents.subList(2, 5))).isZero();

        // the console: an operator sees the job waiting, without a way to approve it; an approver approves it there
        String asOperator = ConsoleSession.signedIn(app, "operator").get("/console/replay-jobs").body();
        assertThat(asOperator).contains(job).contains("AWAITING_APPROVAL").doesNotContain("action-approve-");
        ConsoleSession approver = ConsoleSession.signedIn(app, "approver");
        String page = approver.get("/console/replay-jobs").body();
        assertThat(page).contains("action-approve-");
        HttpResponse<String> approved = approver.postWithToken("/console/replay-jobs", "/console/replay-jobs/" + job + "/approve",
                Map.of("reason", "checked the selection: all from the 14:02 outage"));
        assertThat(approved.statusCode()).as(approved.body()).isEqualTo(302);
        JsonNode done = await().atMost(WAIT).until(() -> job(job), view -> "COMPLETED".equals(view.path("status").asText()));
        assertThat(done.path("progress").path("requested").asInt()).isEqualTo(3);
        assertThat(done.path("createdBy").asText()).isEqualTo("lead");
        assertThat(done.path("reason").asText()).isEqualTo("the 14:02 outage");
        assertThat(done.path("approval").path("approvedBy").asText()).isEqualTo("approver");
        assertThat(done.path("approval").path("reason").asText()).isEqualTo("checked the selection: all from the 14:02 outage");
        assertThat(Replays.lastPayload(app, job, "ReplayJobCreated")).contains("\"awaitingApproval\":true").contains("\"principal\":\"lead\"");
        assertThat(Replays.lastPayload(app, job, "ReplayJobApproved")).contains("\"principal\":\"approver\"");
        String shown = approver.get("/console/replay-jobs").body();
        assertThat(shown).contains("the 14:02 outage").contains("checked the selection: all from the 14:02 outage")
                .contains("class=\"approved-by\">approver<").contains("class=\"created-by\">lead<");

        HttpResponse<String> again = approve(job, "approver", "once more");
        assertThat(again.statusCode()).as(again.body()).isEqualTo(409);
        assertThat(again.body()).contains("NOT_AWAITING_APPROVAL");
    }

    private static JsonNode create(String user, List<String> ids, String reason) throws Exception {
        HttpResponse<String> created = RunningApp.post(app, "/api/v1/replay-jobs", user, "{\"reason\":\"" + reason + "\",\"incidentIds\":"
                + JSON.writeValueAsString(ids) + ",\"rate\":50}");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        return JSON.readTree(created.body());
    }

    private static HttpResponse<String> approve(String job, String user, String reason) throws Exception {
        return RunningApp.post(app, "/api/v1/replay-jobs/" + job + "/approve", user, "{\"reason\":\"" + reason + "\"}");
    }

    private static JsonNode job(String job) throws Exception {
        return JSON.readTree(RunningApp.get(app, "/api/v1/replay-jobs/" + job, "viewer", RunningApp.PASSWORD).body());
    }

    private static int requestsOf(List<String> ids) {
        return ids.stream().mapToInt(id -> Replays.events(app, id, "ReplayRequested")).sum();
    }
}

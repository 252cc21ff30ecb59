package io.dlqdesk.app;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every endpoint × every caller → the expected status, HEAD as GET, and anything not named denied. Callers a role does not allow get 401/403
 * before anything runs; allowed callers reach the endpoint, which answers for an incident that does
 * not exist (404) or with the resource. Plus path tricks that must never reach another endpoint.
 */
@RealInfrastructure
class SecurityMatrixIT {

    private static final String UNKNOWN = IncidentId.of(new FailureKey("nowhere-" + System.nanoTime(), 0, 0, "g")).value();
    private static final String UNKNOWN_JOB = String.format("job-%032x", System.nanoTime()); // well formed, never made
    private static final String REASON = "{\"reason\":\"matrix\"}";
    private static final List<String> CALLERS = List.of("anonymous", "viewer", "deployer", "operator", "admin", "metrics");

    private static ConfigurableApplicationContext app;

    @BeforeAll
    static void start(TestDatabase database, KafkaBroker broker) {
        long nonce = System.nanoTime();
        // no DLQ topic at all, accepted: the rollback check (READY here) reads no other test's DLQs
        app = RunningApp.start(database, broker, Map.of("dlqdesk.events-topic", "it-matrix-" + nonce,
                "dlqdesk.ingest.topic-pattern", "it-matrix-" + nonce + "-none\\.dlq",
                "dlqdesk.rollback.allow-no-dlq-topics", "true",
                "dlqdesk.rollback.observation-interval", "100ms"));
    }

    @AfterAll
    static void stop() {
        app.close();
    }

    /** Method, path, body, and the status for anonymous, viewer, deployer, operator, admin, metrics. */
    private record Row(String method, String path, String body, int... expected) {
    }

    @Test
    void everyEndpointAnswersEveryCallerAsItsRoleAllows() throws Exception {
        String asOf = "/api/v1/audit/incidents-as-of?at=2026-01-01T00:00:00Z";
        List<Row> rows = List.of(
                new Row("GET", "/api/v1/incidents", null, 401, 200, 403, 200, 200, 403),
                new Row("GET", "/api/v1/incidents/export?format=csv", null, 401, 200, 403, 200, 200, 403),
                new Row("GET", "/api/v1/incidents/" + UNKNOWN, null, 401, 404, 403, 404, 404, 403),
                new Row("GET", "/api/v1/incidents/" + UNKNOWN + "/history", null, 401, 404, 403, 404, 404, 403),
                new Row("GET", "/api/v1/incident-counts?by=status", null, 401, 200, 403, 200, 200, 403),
                new Row("GET", "/api/v1/exception-groups", null, 401, 200, 403, 200, 200, 403),
                new Row("GET", "/api/v1/audit", null, 401, 200, 403, 200, 200, 403),
                new Row("GET", asOf, null, 401, 200, 403, 200, 200, 403),
                new Row("GET", "/api/v1/quarantine", null, 401, 200, 403, 200, 200, 403),
                new Row("GET", "/api/v1/quarantine/matrix-none.dlq/0/0", null, 401, 404, 403, 404, 404, 403),
                new Row("GET", "/api/v1/topics/retention", null, 401, 200, 403, 200, 200, 403),
                new Row("GET", "/api/v1/replay-switch", null, 401, 200, 403, 200, 200, 403),
                new Row("GET", "/api/v1/rollback-readiness", null, 401, 200, 200, 200, 200, 403),
                new Row("GET", "/api/v1/replay-jobs", null, 401, 200, 403, 200, 200, 403),
                new Row("GET", "/api/v1/replay-jobs/" + UNKNOWN_JOB, null, 401, 404, 403, 404, 404, 403),
                new Row("GET", "/v3/api-docs", null, 401, 200, 403, 200, 200, 403),
                new Row("GET", "/v3/api-docs.yaml", null, 401, 200, 403, 200, 200, 403),
                new Row("GET", "/swagger-ui/index.html", null, 401, 200, 403, 200, 200, 403),
                // HEAD follows GET's rule: no existence oracle, no check run for a role that may not read
                new Row("HEAD", "/api/v1/incidents/" + UNKNOWN, null, 401, 404, 403, 404, 404, 403),
                new Row("HEAD", "/api/v1/incidents", null, 401, 200, 403, 200, 200, 403),
                new Row("HEAD", "/api/v1/incidents/export?format=ndjson", null, 401, 200, 403, 200, 200, 403),
                new Row("POST", "/api/v1/incidents/export?format=csv", null, 401, 403, 403, 403, 403, 403),
                new Row("HEAD", asOf, null, 401, 200, 403, 200, 200, 403),
                new Row("HEAD", "/api/v1/rollback-readiness", null, 401, 200, 200, 200, 200, 403),
                new Row("HEAD", "/v3/api-docs.yaml", null, 401, 200, 403, 200, 200, 403),
                // nothing that is not named: denied for everyone
                new Row("GET", "/api/v1/not-an-endpoint", null, 401, 403, 403, 403, 403, 403),
                new Row("GET", "/webjars/not-there.js", null, 401, 403, 403, 403, 403, 403),
                new Row("GET", "/error", null, 401, 403, 403, 403, 403, 403),
                new Row("DELETE", "/api/v1/incidents/" + UNKNOWN, null, 401, 403, 403, 403, 403, 403),
                new Row("OPTIONS", "/api/v1/incidents", null, 401, 403, 403, 403, 403, 403),
                new Row("POST", "/api/v1/incidents/" + UNKNOWN + "/acknowledge", REASON, 401, 403, 403, 404, 404, 403),
                new Row("POST", "/api/v1/incidents/" + UNKNOWN + "/resolve", REASON, 401, 403, 403, 404, 404, 403),
                new Row("POST", "/api/v1/incidents/" + UNKNOWN + "/discard", REASON, 401, 403, 403, 404, 404, 403),
                new Row("POST", "/api/v1/incidents/" + UNKNOWN + "/replay", REASON, 401, 403, 403, 404, 404, 403),
                // edits: read by every reader; proposed by EDITOR and approved by APPROVER alone, which no role here implies
                new Row("GET", "/api/v1/incidents/" + UNKNOWN + "/edits", null, 401, 404, 403, 404, 404, 403),
                new Row("POST", "/api/v1/incidents/" + UNKNOWN + "/edits", "{\"reason\":\"matrix\",\"value\":\"x\"}", 401, 403, 403, 403, 403, 403),
                new Row("POST", "/api/v1/incidents/" + UNKNOWN + "/edits/1/approve", REASON, 401, 403, 403, 403, 403, 403),
                new Row("POST", "/api/v1/incidents/" + UNKNOWN + "/attempts/1/publish-unknown", REASON, 401, 403, 403, 403, 404, 403),
                // an empty selection: the operator got past security (422), the viewer did not
                new Row("POST", "/api/v1/replay-jobs", "{\"reason\":\"matrix\",\"incidentIds\":[]}", 401, 403, 403, 422, 422, 403),
                new Row("POST", "/api/v1/replay-jobs/" + UNKNOWN_JOB + "/pause", REASON, 401, 403, 403, 404, 404, 403),
                new Row("POST", "/api/v1/replay-jobs/" + UNKNOWN_JOB + "/resume", REASON, 401, 403, 403, 404, 404, 403),
                new Row("POST", "/api/v1/replay-jobs/" + UNKNOWN_JOB + "/cancel", REASON, 401, 403, 403, 404, 404, 403),
                new Row("GET", "/api/v1/read-model-rebuilds", null, 401, 200, 403, 200, 200, 403),
                new Row("GET", "/api/v1/read-model-rebuilds/" + UNKNOWN_JOB, null, 401, 404, 403, 404, 404, 403),
                // an unknown processor: the admin's request is checked (400) and no rebuild starts in this test
                new Row("POST", "/api/v1/read-model-rebuilds", "{\"processor\":\"none\",\"reason\":\"matrix\"}", 401, 403, 403, 403, 400, 403),
                new Row("POST", "/api/v1/read-model-rebuilds/" + UNKNOWN_JOB + "/cancel", REASON, 401, 403, 403, 403, 404, 403),
                new Row("DELETE", "/api/v1/replay-jobs/" + UNKNOWN_JOB, null, 401, 403, 403, 403, 403, 403),
                new Row("PUT", "/api/v1/replay-switch", "{\"enabled\":false,\"reason\":\"matrix\"}", 401, 403, 403, 403, 200, 403),
                new Row("GET", "/actuator/health/readiness", null, 200, 200, 200, 200, 200, 200),
                new Row("HEAD", "/actuator/health/liveness", null, 200, 200, 200, 200, 200, 200),
                new Row("GET", "/actuator/info", null, 401, 403, 403, 403, 200, 403),
                new Row("GET", "/actuator/metrics", null, 401, 403, 403, 403, 404, 403), // exposed only if configured: 404 for admin
                new Row("GET", "/actuator/prometheus", null, 401, 403, 403, 403, 200, 200),
                new Row("POST", "/actuator/prometheus", null, 401, 403, 403, 403, 405, 403));
        List<String> wrong = new ArrayList<>();
        for (Row row : rows) {
            for (int i = 0; i < CALLERS.size(); i++) {
                HttpResponse<String> response = call(row.method(), row.path(), row.body(), CALLERS.get(i));
                if (response.statusCode() != row.expected()[i]) {
                    wrong.add(row.method() + " " + row.path() + " as " + CALLERS.get(i) + ": expected " + row.expected()[i] + ", got "
                            + response.statusCode() + " " + response.body());
                }
            }
        }
        assertThat(wrong).isEmpty();
    }

    @Test
    void pathTricksAreRejectedAndNeverReachAnotherEndpoint() throws Exception {
        String[] tricks = {
                "/api/v1/incidents/..%2F..%2Factuator%2Finfo",
                "/api/v1/incidents/%2e%2e/%2e%2e/actuator/info",
                "/api/v1/incidents/inc-0123%2F..%2F..",
                "/api/v1/incidents/" + UNKNOWN + "%2F..%2F..%2Factuator%2Finfo",
                "/api/v1/incidents/" + UNKNOWN + "0",
                "/api/v1/incidents/" + "inc-" + "a".repeat(5000),
                "/api/v1/incidents/inc-0123'%20OR%20'1'='1",
                "/api/v1/incidents/inc-0123%3B%20DROP%20TABLE%20incident_summary",
                "/api/v1/incidents/%00inc-0123",
                "/api/v1/incidents/" + UNKNOWN.toUpperCase()};
        for (String trick : tricks) {
            HttpResponse<String> response = call("GET", trick, null, "viewer");
            assertThat(response.statusCode()).as(trick + " → " + response.body()).isIn(400, 404);
            assertThat(response.body()).as(trick).doesNotContain("\"build\"", "\"git\"", "\"items\"");
        }
        HttpResponse<String> command = call("POST", "/api/v1/incidents/..%2F..%2Freplay-switch", REASON, "admin");
        assertThat(command.statusCode()).isIn(400, 404);
        assertThat(call("GET", "/api/v1/replay-switch", null, "viewer").body()).doesNotContain("\"reason\":\"matrix\"\"}]", "\"on\":true");
    }

    private static HttpResponse<String> call(String method, String path, String body, String caller) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.getEnvironment().getProperty("local.server.port") + path))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        if (!caller.equals("anonymous")) {
            request.header("Authorization", "Basic " + Base64.getEncoder().encodeToString((caller + ":" + RunningApp.PASSWORD)
                    .getBytes(StandardCharsets.UTF_8)));
        }
        return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}

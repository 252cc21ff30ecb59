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

import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The console's security at the HTTP level, on the real stack (no MockMvc): form login with a session that changes id at
 * sign-in, CSRF tokens required on every POST (and accepted when sent), each role's pages and actions, secure headers,
 * and the two chains kept apart (a console session is no API credential; Basic is no console credential).
 */
@RealInfrastructure
class ConsoleSecurityIT {

    private static ConfigurableApplicationContext app;

    @BeforeAll
    static void start(TestDatabase database, KafkaBroker broker) {
        long nonce = System.nanoTime();
        app = RunningApp.start(database, broker, Map.of("dlqdesk.events-topic", "it-console-sec-" + nonce,
                "dlqdesk.ingest.topic-pattern", "it-console-sec-" + nonce + "-none\\.dlq",
                "dlqdesk.rollback.allow-no-dlq-topics", "true",
                "dlqdesk.rollback.observation-interval", "100ms"));
    }

    @AfterAll
    static void stop() {
        app.close();
    }

    /** An incident the read model lists (it follows the event store within seconds). */
    private static String incident(String name) {
        String id = RunningApp.openIncident(app, new FailureKey("console-sec-" + name + "-" + System.nanoTime(), 0, 1, "billing"),
                Instant.now()).value();
        await().atMost(Duration.ofSeconds(30)).until(() -> Replays.statusOf(app, id) != null);
        return id;
    }

    @Test
    void anonymousIsSentToTheLoginPageAndTheLoginPageAndAssetsAreOpen() throws Exception {
        ConsoleSession anonymous = new ConsoleSession(app);
        HttpResponse<String> console = anonymous.get("/console/incidents");
        assertThat(console.statusCode()).isEqualTo(302);
        assertThat(console.headers().firstValue("Location")).hasValueSatisfying(location -> assertThat(location).endsWith("/login"));
        assertThat(anonymous.get("/login").statusCode()).isEqualTo(200);
        assertThat(anonymous.get("/console/assets/console.css").statusCode()).isEqualTo(200);
        assertThat(anonymous.get("/console/assets/console.js").statusCode()).isEqualTo(200);
        assertThat(anonymous.get("/webjars/htmx.org/dist/htmx.min.js").statusCode()).isEqualTo(200);
        // an htmx panel refreshing after the session ended is told where to go instead of swapping the login page in
        HttpResponse<String> panel = anonymous.get("/console/overview/panels", "HX-Request", "true");
        assertThat(panel.statusCode()).isEqualTo(401);
        assertThat(panel.headers().firstValue("HX-Redirect")).hasValue("/login");
    }

    @Test
    void signingInGivesANewSessionIdAndAWrongPasswordDoesNotSignIn() throws Exception {
        ConsoleSession session = new ConsoleSession(app);
        session.get("/login"); // the CSRF token lives in a session from here on
        String before = session.cookie("JSESSIONID").orElseThrow();
        HttpResponse<String> wrong = session.signIn("viewer", "not-the-password");
        assertThat(wrong.headers().firstValue("Location")).hasValueSatisfying(location -> assertThat(location).endsWith("/login?error"));
        assertThat(session.get("/console").statusCode()).isEqualTo(302);

        HttpResponse<String> right = session.signIn("viewer", RunningApp.PASSWORD);
        assertThat(right.statusCode()).isEqualTo(302);
        assertThat(right.headers().firstValue("Location").orElseThrow()).doesNotContain("error");
        assertThat(session.cookie("JSESSIONID").orElseThrow()).as("session fixation: a new id at sign-in").isNotEqualTo(before);
        assertThat(session.get("/console").statusCode()).isEqualTo(200);
    }

    @Test
    void aPostWithoutItsCsrfTokenIsRefusedAndTheSamePostWithItIsAccepted() throws Exception {
        String id = incident("csrf");
        ConsoleSession operator = ConsoleSession.signedIn(app, "operator");
        HttpResponse<String> withoutToken = operator.post("/console/incidents/" + id + "/acknowledge", Map.of("reason", "no token"));
        assertThat(withoutToken.statusCode()).isEqualTo(403);
        HttpResponse<String> wrongToken = operator.post("/console/incidents/" + id + "/acknowledge",
                Map.of("reason", "forged token", "_csrf", "not-the-token"));
        assertThat(wrongToken.statusCode()).isEqualTo(403);
        assertThat(Replays.statusOf(app, id)).isEqualTo("OPEN");

        HttpResponse<String> withToken = operator.postWithToken("/console/incidents/" + id, "/console/incidents/" + id + "/acknowledge",
                Map.of("reason", "on it"));
        assertThat(withToken.statusCode()).isEqualTo(302);
        assertThat(withToken.headers().firstValue("Location").orElseThrow()).endsWith("/console/incidents/" + id);
        await().atMost(Duration.ofSeconds(30)).until(() -> "ACKED".equals(Replays.statusOf(app, id)));
        // the signed-in user is the principal on the event, never a form field
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(RunningApp.get(app, "/api/v1/incidents/" + id + "/history",
                "viewer", RunningApp.PASSWORD).body()).contains("\"principal\":\"operator\"", "\"reason\":\"on it\""));
    }

    @Test
    void aViewerReadsButMayNotActAndAnOperatorMayNotTurnTheSwitch() throws Exception {
        String id = incident("roles");
        ConsoleSession viewer = ConsoleSession.signedIn(app, "viewer");
        assertThat(viewer.get("/console/incidents/" + id).statusCode()).isEqualTo(200);
        assertThat(viewer.get("/console/incidents/" + id).body()).doesNotContain("action-acknowledge", "action-replay", "dialog-resolve");
        for (String action : new String[] {"acknowledge", "resolve", "discard", "replay"}) {
            assertThat(viewer.postWithToken("/console", "/console/incidents/" + id + "/" + action, Map.of("reason", "viewer tries"))
                    .statusCode()).as(action).isEqualTo(403);
        }
        assertThat(viewer.postWithToken("/console", "/console/replay-switch", Map.of("enabled", "true", "reason", "viewer tries"))
                .statusCode()).isEqualTo(403);
        assertThat(Replays.statusOf(app, id)).isEqualTo("OPEN");

        ConsoleSession operator = ConsoleSession.signedIn(app, "operator");
        assertThat(operator.get("/console/incidents/" + id).body()).contains("action-acknowledge", "action-replay");
        assertThat(operator.get("/console/replay-switch").body()).doesNotContain("action-switch");
        assertThat(operator.postWithToken("/console", "/console/replay-switch", Map.of("enabled", "false", "reason", "operator tries"))
                .statusCode()).isEqualTo(403);

        assertThat(operator.postWithToken("/console", "/console/incidents/" + id + "/attempts/1/publish-unknown",
                Map.of("reason", "operator tries")).statusCode()).isEqualTo(403);

        ConsoleSession admin = ConsoleSession.signedIn(app, "admin");
        // allowed to ask; the incident refuses (it has no attempt 1) and the page says so
        HttpResponse<String> mark = admin.postWithToken("/console", "/console/incidents/" + id + "/attempts/1/publish-unknown",
                Map.of("reason", "row lost in a restore"));
        assertThat(mark.statusCode()).isEqualTo(302);
        assertThat(admin.get("/console/incidents/" + id).body()).contains("notice-refused", "Refused (");
        assertThat(admin.get("/console/replay-switch").body()).contains("action-switch");
        HttpResponse<String> turned = admin.postWithToken("/console/replay-switch", "/console/replay-switch",
                Map.of("enabled", "false", "reason", "admin turns it off"));
        assertThat(turned.statusCode()).isEqualTo(302);
        assertThat(RunningApp.get(app, "/api/v1/replay-switch", "viewer", RunningApp.PASSWORD).body()).contains("admin turns it off");

        // rebuilds: everyone reads the page, only an admin starts one (an unknown processor here: refused, nothing starts)
        assertThat(viewer.get("/console/rebuilds").body()).contains("id=\"rebuilds\"").doesNotContain("action-rebuild");
        assertThat(operator.postWithToken("/console", "/console/rebuilds", Map.of("processor", "none", "reason", "operator tries"))
                .statusCode()).isEqualTo(403);
        assertThat(admin.get("/console/rebuilds").body()).contains("action-rebuild", "incident-read-models");
        HttpResponse<String> rebuild = admin.postWithToken("/console/rebuilds", "/console/rebuilds", Map.of("processor", "none", "reason", "admin tries"));
        assertThat(rebuild.statusCode()).isEqualTo(302);
        assertThat(admin.get("/console/rebuilds").body()).contains("notice-refused", "no read models are built by processor");
    }

    @Test
    void rolesThatReadNoIncidentSeeNoConsolePage() throws Exception {
        for (String user : new String[] {"deployer", "metrics"}) {
            ConsoleSession session = ConsoleSession.signedIn(app, user);
            assertThat(session.get("/console").statusCode()).as(user).isEqualTo(403);
            assertThat(session.get("/console/rollback").statusCode()).as(user).isEqualTo(403);
        }
        assertThat(ConsoleSession.signedIn(app, "viewer").get("/console/rollback").statusCode()).isEqualTo(200);
    }

    @Test
    void pagesAllowNoInlineScriptAndNoFraming() throws Exception {
        ConsoleSession viewer = ConsoleSession.signedIn(app, "viewer");
        for (String path : new String[] {"/login", "/console", "/console/incidents"}) {
            HttpResponse<String> page = viewer.get(path);
            String csp = page.headers().firstValue("Content-Security-Policy").orElse("");
            assertThat(csp).as(path).contains("script-src 'self'", "frame-ancestors 'none'", "default-src 'none'")
                    .doesNotContain("unsafe-inline", "unsafe-eval");
            assertThat(page.headers().firstValue("X-Frame-Options")).as(path).hasValue("DENY");
            assertThat(page.headers().firstValue("X-Content-Type-Options")).as(path).hasValue("nosniff");
            assertThat(page.body()).as(path).doesNotContainPattern("<script(?![^>]*\\bsrc=)[^>]*>").doesNotContainPattern("\\son[a-z]+=\"");
        }
    }

    @Test
    void theConsoleSessionIsNoApiCredentialAndBasicIsNoConsoleCredential() throws Exception {
        ConsoleSession viewer = ConsoleSession.signedIn(app, "viewer");
        assertThat(viewer.get("/api/v1/incidents").statusCode()).as("the API is stateless: no cookie login, so no CSRF exposure")
                .isEqualTo(401);
        assertThat(RunningApp.get(app, "/console", "viewer", RunningApp.PASSWORD).statusCode()).as("Basic on a console page")
                .isEqualTo(302);
        assertThat(viewer.get("/console").statusCode()).isEqualTo(200);
    }

    @Test
    void signingOutEndsTheSession() throws Exception {
        ConsoleSession viewer = ConsoleSession.signedIn(app, "viewer");
        assertThat(viewer.post("/logout", Map.of()).statusCode()).as("without its token").isEqualTo(403);
        assertThat(viewer.get("/console").statusCode()).isEqualTo(200);
        HttpResponse<String> out = viewer.postWithToken("/console", "/logout", Map.of());
        assertThat(out.headers().firstValue("Location")).hasValueSatisfying(location -> assertThat(location).endsWith("/login?logout"));
        assertThat(viewer.get("/console").statusCode()).isEqualTo(302);
    }

    @Test
    void badInputIsAPageWithItsStatusNotAStackTrace() throws Exception {
        ConsoleSession viewer = ConsoleSession.signedIn(app, "viewer");
        HttpResponse<String> badId = viewer.get("/console/incidents/not-an-id");
        assertThat(badId.statusCode()).isEqualTo(400);
        assertThat(badId.headers().firstValue("Content-Type").orElse("")).startsWith("text/html");
        String unknown = IncidentId.of(new FailureKey("console-sec-none-" + System.nanoTime(), 0, 0, "g")).value();
        assertThat(viewer.get("/console/incidents/" + unknown).statusCode()).isEqualTo(404);
        assertThat(viewer.get("/console/incidents?status=NOPE").statusCode()).isEqualTo(400);
        assertThat(viewer.get("/console/incidents?page=5000").statusCode()).isEqualTo(400);
        assertThat(viewer.get("/console/incidents?key=a&keyHex=61").statusCode()).isEqualTo(400);
        assertThat(viewer.get("/console/not-a-page").statusCode()).isEqualTo(404);
    }
}

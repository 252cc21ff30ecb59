package io.dlqdesk.app;

import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

import java.net.http.HttpResponse;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Who may call what: authentication everywhere but the probes, roles, problem+json refusals. */
@RealInfrastructure
class SecurityIT {

    private static final String READ_ENDPOINT = "/api/v1/topics/retention";
    private static ConfigurableApplicationContext app;

    @BeforeAll
    static void start(TestDatabase database, KafkaBroker broker) {
        app = RunningApp.start(database, broker, Map.of("dlqdesk.events-topic", "it-security-" + System.nanoTime()));
    }

    @AfterAll
    static void stop() {
        app.close();
    }

    @Test
    void anAnonymousCallerIsRefusedWithAProblem() throws Exception {
        HttpResponse<String> response = RunningApp.get(app, READ_ENDPOINT);
        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
        assertThat(response.body()).contains("\"type\":\"urn:dlqdesk:problem:unauthenticated\"").contains("\"status\":401");
    }

    @Test
    void aWrongPasswordIsRefused() throws Exception {
        assertThat(RunningApp.get(app, READ_ENDPOINT, "viewer", "not-the-password").statusCode()).isEqualTo(401);
        assertThat(RunningApp.get(app, READ_ENDPOINT, "nobody", RunningApp.PASSWORD).statusCode()).isEqualTo(401);
    }

    @Test
    void everyRoleMayRead() throws Exception {
        for (String user : new String[] {"viewer", "operator", "admin", "deployer"}) {
            assertThat(RunningApp.get(app, READ_ENDPOINT, user, RunningApp.PASSWORD).statusCode()).as(user).isEqualTo(200);
        }
    }

    @Test
    void theProbesArePublicAndOtherActuatorEndpointsNeedAdmin() throws Exception {
        assertThat(RunningApp.get(app, "/actuator/health/liveness").statusCode()).isEqualTo(200);
        assertThat(RunningApp.get(app, "/actuator/health/readiness").statusCode()).isEqualTo(200);
        assertThat(RunningApp.get(app, "/actuator/info").statusCode()).isEqualTo(401);
        HttpResponse<String> viewer = RunningApp.get(app, "/actuator/info", "viewer", RunningApp.PASSWORD);
        assertThat(viewer.statusCode()).isEqualTo(403);
        assertThat(viewer.body()).contains("\"type\":\"urn:dlqdesk:problem:forbidden\"");
        assertThat(RunningApp.get(app, "/actuator/info", "admin", RunningApp.PASSWORD).statusCode()).isEqualTo(200);
    }

    @Test
    void aPlainTextPasswordInTheConfigurationIsRefusedAtStartUp(TestDatabase database, KafkaBroker broker) {
        assertThatThrownBy(() -> RunningApp.start(database, broker, Map.of(
                "dlqdesk.security.users[0].password-hash", "secret",
                "server.port", "0")).close())
                .hasStackTraceContaining("dlqdesk.security.users[0].passwordHash")
                .hasStackTraceContaining("never plain text");
    }
}

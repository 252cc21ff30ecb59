package io.dlqdesk.app;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.dlqdesk.operations.security.LoginThrottle;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.LoggedEvents;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.context.ConfigurableApplicationContext;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** Who may call what: authentication everywhere but the probes, roles, problem+json refusals. */
@RealInfrastructure
class SecurityIT {

    private static final String READ_ENDPOINT = "/api/v1/topics/retention";
    private static final long NONCE = System.nanoTime();
    private static final String DLQ_TOPIC = "it-security-" + NONCE + "-orders.dlq";
    private static ConfigurableApplicationContext app;

    @BeforeAll
    static void start(TestDatabase database, KafkaBroker broker) throws Exception {
        // made before the service starts: its ingest finds a DLQ topic made later only at its next metadata refresh (up to 30 s)
        IngestLedger.createTopic(broker, DLQ_TOPIC, 1, Map.of());
        app = RunningApp.start(database, broker, Map.of("dlqdesk.events-topic", "it-security-" + NONCE,
                "dlqdesk.ingest.topic-pattern", "it-security-" + NONCE + "-.*\\.dlq",
                // this test's client plays the TLS-terminating proxy
                "server.tomcat.remoteip.internal-proxies", "127\\.0\\.0\\.1"));
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

    /** A newcomer's browser at the root lands on the console's sign-in; a client gets links; neither needs credentials. */
    @Test
    void theRootSendsABrowserToTheConsoleAndGivesAnyOtherClientLinks() throws Exception {
        String browser = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
        HttpResponse<String> page = RunningApp.getAccepting(app, "/", browser);
        assertThat(page.statusCode()).isEqualTo(302);
        assertThat(page.headers().firstValue("Location")).hasValueSatisfying(location -> assertThat(location).endsWith("/console"));
        HttpResponse<String> console = RunningApp.getAccepting(app, "/console", browser);
        assertThat(console.statusCode()).isEqualTo(302);
        assertThat(console.headers().firstValue("Location")).hasValueSatisfying(location -> assertThat(location).endsWith("/login"));

        for (String client : new String[] {"application/json", "*/*"}) {
            HttpResponse<String> links = RunningApp.getAccepting(app, "/", client);
            assertThat(links.statusCode()).as(client).isEqualTo(200);
            assertThat(links.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("application/json"));
            assertThat(links.body()).as(client).contains("\"/v3/api-docs\"", "\"/actuator/health\"", "\"/console\"");
        }
        assertThat(RunningApp.get(app, "/").statusCode()).as("no Accept header at all").isEqualTo(200);
        assertThat(RunningApp.get(app, "/anything-else").statusCode()).as("the root opens nothing else").isEqualTo(401);
    }

    @Test
    void aWrongPasswordIsRefused() throws Exception {
        assertThat(RunningApp.get(app, READ_ENDPOINT, "viewer", "not-the-password").statusCode()).isEqualTo(401);
        assertThat(RunningApp.get(app, READ_ENDPOINT, "nobody", RunningApp.PASSWORD).statusCode()).isEqualTo(401);
    }

    @Test
    void everyReadingRoleMayReadButTheDeployerOnlyRollbackReadiness() throws Exception {
        for (String user : new String[] {"viewer", "operator", "admin"}) {
            assertThat(RunningApp.get(app, READ_ENDPOINT, user, RunningApp.PASSWORD).statusCode()).as(user).isEqualTo(200);
        }
        assertThat(RunningApp.get(app, READ_ENDPOINT, "deployer", RunningApp.PASSWORD).statusCode()).isEqualTo(403);
        assertThat(RunningApp.get(app, "/api/v1/quarantine", "deployer", RunningApp.PASSWORD).statusCode()).isEqualTo(403);
        assertThat(RunningApp.get(app, "/api/v1/rollback-readiness", "deployer", RunningApp.PASSWORD).statusCode()).isIn(200, 409, 503);
    }

    @Test
    void readinessDetailsAreForAdminsAndAnonymousCallersGetTheStatusOnly() throws Exception {
        HttpResponse<String> anonymous = RunningApp.get(app, "/actuator/health/readiness");
        assertThat(anonymous.statusCode()).isEqualTo(200);
        assertThat(anonymous.body()).isEqualTo("{\"status\":\"UP\"}");
        assertThat(RunningApp.get(app, "/actuator/health/readiness", "viewer", RunningApp.PASSWORD).body()).isEqualTo("{\"status\":\"UP\"}");
        assertThat(RunningApp.get(app, "/actuator/health/readiness", "admin", RunningApp.PASSWORD).body()).contains("\"components\"", "dlqIngest");
        assertThat(RunningApp.get(app, "/actuator/health/liveness").body()).isEqualTo("{\"status\":\"UP\"}");
    }

    /** A producer's credentials dead-lettered with its record are not shown; other headers are. */
    @Test
    void deniedHeadersOfAQuarantinedRecordAreRedacted(KafkaBroker broker) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = IngestLedger.producer(broker, Map.of())) {
            ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(DLQ_TOPIC, null, "k".getBytes(StandardCharsets.UTF_8),
                    "no dead-letter headers at all".getBytes(StandardCharsets.UTF_8));
            record.headers().add("Authorization", "Bearer secret-token".getBytes(StandardCharsets.UTF_8));
            record.headers().add("X-Api-Key", "secret-key".getBytes(StandardCharsets.UTF_8));
            record.headers().add("trace-note", "visible".getBytes(StandardCharsets.UTF_8));
            producer.send(record).get();
        }
        String path = "/api/v1/quarantine?topic=" + DLQ_TOPIC;
        await().atMost(Duration.ofSeconds(60)).until(() -> RunningApp.get(app, path, "viewer", RunningApp.PASSWORD).body().contains("\"total\":1"));
        String list = RunningApp.get(app, path, "viewer", RunningApp.PASSWORD).body();
        assertThat(list).as("the list is summaries: no header at all").doesNotContain(b64("Bearer secret-token"), b64("visible"));
        java.util.regex.Matcher offset = java.util.regex.Pattern.compile("\"dlqOffset\":(\\d+)").matcher(list);
        assertThat(offset.find()).isTrue();
        String body = RunningApp.get(app, "/api/v1/quarantine/" + DLQ_TOPIC + "/0/" + offset.group(1), "viewer", RunningApp.PASSWORD).body();
        assertThat(body).contains("Authorization", "X-Api-Key", "[redacted]", b64("visible"))
                .doesNotContain(b64("Bearer secret-token"), b64("secret-key"));
    }

    private static String b64(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
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

    /** Behind the configured proxy, X-Forwarded-Proto says the request came over TLS (HSTS is sent) and X-Forwarded-For whose it is. */
    @Test
    void aConfiguredProxysForwardedSchemeAndAddressAreHonoured() throws Exception {
        ch.qos.logback.classic.Logger logger = (ch.qos.logback.classic.Logger) LoggerFactory.getLogger(LoginThrottle.class);
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        logger.addAppender(logged);
        try {
            HttpRequest behindProxy = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.getEnvironment().getProperty("local.server.port")
                            + READ_ENDPOINT)).header("X-Forwarded-Proto", "https").header("X-Forwarded-For", "198.51.100.23")
                    .header("Authorization", "Basic " + Base64.getEncoder().encodeToString("proxied:wrong".getBytes(StandardCharsets.UTF_8))).build();
            HttpResponse<String> tls = HttpClient.newHttpClient().send(behindProxy, HttpResponse.BodyHandlers.ofString());
            assertThat(tls.statusCode()).isEqualTo(401);
            assertThat(tls.headers().firstValue("Strict-Transport-Security")).hasValueSatisfying(value -> assertThat(value).contains("max-age="));
            assertThat(RunningApp.get(app, "/actuator/health/liveness").headers().firstValue("Strict-Transport-Security")).isEmpty();
            assertThat(LoggedEvents.snapshot(logged)).filteredOn(event -> event.getFormattedMessage().startsWith("failed login for user 'proxied'"))
                    .singleElement().satisfies(event -> assertThat(event.getFormattedMessage()).contains("from 198.51.100.23"));
        } finally {
            logger.detachAppender(logged);
        }
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

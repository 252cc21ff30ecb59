package io.dlqdesk.app;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.operations.security.LoginThrottle;
import io.dlqdesk.rollback.web.SharedReadinessCheck;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.LoggedEvents;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import io.micrometer.core.instrument.MeterRegistry;
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
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An outsider with a valid low-privilege credential trying to hurt the service on the real stack: a burst
 * of rollback checks must not starve the probes or the rest of the API.
 */
@RealInfrastructure
class SecurityAbuseIT {

    private static final int BURST = 210;
    private static final String DEPLOYER_TOKEN = "dlqdesk_" + "5e".repeat(32);
    private static final String METRICS_TOKEN = "dlqdesk_" + "a7".repeat(32);
    private static ConfigurableApplicationContext app;

    @BeforeAll
    static void start(TestDatabase database, KafkaBroker broker) {
        long nonce = System.nanoTime();
        Map<String, Object> settings = new java.util.HashMap<>(Map.of("dlqdesk.events-topic", "it-abuse-" + nonce,
                "dlqdesk.ingest.topic-pattern", "it-abuse-" + nonce + "-none\\.dlq",
                "dlqdesk.rollback.allow-no-dlq-topics", "true",
                "dlqdesk.rollback.observation-interval", "2s",
                // fewer waiters than the callers that pass the password-check bound together (its 4 slots at once; 15 in all on
                // a slow day, where 16 were never reached): both bounds are met
                "dlqdesk.rollback.endpoint.max-waiters", "2",
                // this class's other tests come from the same address: only the per-user limit is under test here
                "dlqdesk.security.logins.max-failures-per-user", "5",
                "dlqdesk.security.logins.max-failures-per-address", "1000",
                "dlqdesk.security.logins.window", "5s"));
        settings.putAll(Map.of("dlqdesk.security.service-tokens[0].name", "ci-rollback",
                "dlqdesk.security.service-tokens[0].sha256", sha256(DEPLOYER_TOKEN),
                "dlqdesk.security.service-tokens[0].roles", "DEPLOYER",
                "dlqdesk.security.service-tokens[1].name", "prometheus",
                "dlqdesk.security.service-tokens[1].sha256", sha256(METRICS_TOKEN),
                "dlqdesk.security.service-tokens[1].roles", "METRICS"));
        app = RunningApp.start(database, broker, settings);
    }

    /** What an operator configures: the token's SHA-256 in lower-case hex (e.g. {@code printf %s "$TOKEN" | sha256sum}). */
    private static String sha256(String token) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @AfterAll
    static void stop() {
        app.close();
    }

    private record Timed(int status, long millis, String body, String retryAfter) {
    }

    @Test
    void aBurstOfRollbackChecksGetsVerdictsOrAFast429WhileProbesAndListsStayFast() throws Exception {
        assertThat(call("/api/v1/rollback-readiness", "viewer").status()).as("one caller alone gets a verdict").isEqualTo(200);
        // plain HTTP/1.1 as a pipeline's curl would speak it (no h2c upgrade attempts); probes and lists on their own client
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
        HttpClient others = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
        List<Timed> probes = new CopyOnWriteArrayList<>();
        AtomicBoolean bursting = new AtomicBoolean(true);
        Thread prober = new Thread(() -> {
            while (bursting.get()) {
                for (String probe : new String[] {"/actuator/health/liveness", "/actuator/health/readiness"}) {
                    probes.add(timed(others, probe, null));
                }
            }
        });
        prober.setDaemon(true);
        prober.start();

        List<CompletableFuture<Timed>> burst = new ArrayList<>();
        for (int i = 0; i < BURST; i++) {
            burst.add(timedAsync(client, "/api/v1/rollback-readiness", "viewer"));
        }
        SharedReadinessCheck checks = app.getBean(SharedReadinessCheck.class);
        // once every burst caller is past authentication (answered, or waiting for the next check without a thread),
        // a list call competes only with what the waiting callers still cost: nothing
        await().atMost(Duration.ofSeconds(30)).until(() -> burst.stream().filter(CompletableFuture::isDone).count() + checks.waiting() >= BURST);
        List<Timed> lists = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            lists.add(timed(others, "/api/v1/incidents?size=20", "viewer"));
        }
        List<Timed> answers = burst.stream().map(CompletableFuture::join).toList();
        bursting.set(false);
        prober.join();

        System.out.printf("burst: %d answers, slowest %d ms; lists %s ms; probes: %d, slowest %d ms%n", answers.size(),
                answers.stream().mapToLong(Timed::millis).max().orElse(-1), lists.stream().map(Timed::millis).toList(), probes.size(),
                probes.stream().mapToLong(Timed::millis).max().orElse(-1));
        assertThat(lists).allSatisfy(list -> {
            assertThat(list.status()).isEqualTo(200);
            assertThat(list.millis()).as("a list call while the burst waits").isLessThan(1_000);
        });
        assertThat(probes).isNotEmpty().allSatisfy(probe -> {
            assertThat(probe.status()).isEqualTo(200);
            assertThat(probe.millis()).as("a probe during the burst").isLessThan(1_000);
        });
        assertThat(answers).allSatisfy(answer -> {
            if (answer.status() == 429) {
                assertThat(answer.retryAfter()).as("Retry-After").isNotBlank();
                // at once once authenticated: the only wait is for a password-check slot (bounded by password-check-wait, 2 s)
                assertThat(answer.millis()).as("a turned-away caller is told without waiting for a check").isLessThan(5_000);
                assertThat(answer.body()).contains("urn:dlqdesk:problem:too-many-requests");
            } else {
                assertThat(answer.status()).as(answer.body()).isIn(200, 409, 503);
                assertThat(answer.body()).contains("\"verdict\"");
            }
        });
        assertThat(answers).as("some callers shared a check").anyMatch(answer -> answer.status() == 200);
        assertThat(answers).as("callers beyond the check's waiter bound were turned away")
                .anyMatch(answer -> answer.status() == 429 && answer.body().contains("wait for the next rollback check"));
    }

    @Test
    void pagingDeeperThanTheBoundIsA400AndTheBoundItselfIsAnswered() throws Exception {
        for (String list : new String[] {"/api/v1/incidents", "/api/v1/audit", "/api/v1/quarantine"}) {
            HttpResponse<String> tooDeep = RunningApp.get(app, list + "?page=21474836&size=500", "viewer", RunningApp.PASSWORD);
            assertThat(tooDeep.statusCode()).as(list).isEqualTo(400);
            assertThat(tooDeep.body()).contains("urn:dlqdesk:problem:invalid-input", "page × size");
            assertThat(RunningApp.get(app, list + "?page=200&size=500", "viewer", RunningApp.PASSWORD).statusCode()).as(list).isEqualTo(200);
        }
    }

    @Test
    void aBodyNamingAFieldTwiceIsA400AndTheSameBodyWithoutTheDuplicateIsRead() throws Exception {
        String unknown = "/api/v1/incidents/" + IncidentId.of(new FailureKey("abuse-" + System.nanoTime(), 0, 0, "g")).value() + "/acknowledge";
        HttpResponse<String> duplicated = RunningApp.post(app, unknown, "operator", "{\"reason\":\"a\",\"reason\":\"b\"}");
        assertThat(duplicated.statusCode()).isEqualTo(400);
        assertThat(duplicated.body()).contains("urn:dlqdesk:problem:invalid-input", "names a field twice");
        assertThat(RunningApp.post(app, unknown, "operator", "{\"reason\":\"a\"}").statusCode()).as("read, then no such incident").isEqualTo(404);
    }

    /**
     * No proxy is configured (the shipped default): a client's own X-Forwarded-For cannot give it a new address for the
     * throttle at every request, nor X-Forwarded-Proto make plain HTTP count as TLS. SecurityIT has the configured proxy.
     */
    @Test
    void forwardedHeadersFromAPeerThatIsNoConfiguredProxyAreIgnored() throws Exception {
        ch.qos.logback.classic.Logger logger = (ch.qos.logback.classic.Logger) LoggerFactory.getLogger(LoginThrottle.class);
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        logger.addAppender(logged);
        try {
            for (int i = 1; i <= 3; i++) {
                HttpRequest forged = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.getEnvironment().getProperty("local.server.port")
                                + "/api/v1/incidents"))
                        .header("Authorization", "Basic " + Base64.getEncoder().encodeToString(("forwarder:wrong").getBytes(StandardCharsets.UTF_8)))
                        .header("X-Forwarded-For", "203.0.113." + i).header("X-Forwarded-Proto", "https").build();
                HttpResponse<String> answer = HttpClient.newHttpClient().send(forged, HttpResponse.BodyHandlers.ofString());
                assertThat(answer.statusCode()).isEqualTo(401);
                assertThat(answer.headers().firstValue("Strict-Transport-Security")).as("plain HTTP, whatever the header says").isEmpty();
            }
            assertThat(LoggedEvents.snapshot(logged)).filteredOn(event -> event.getFormattedMessage().startsWith("failed login for user 'forwarder'"))
                    .hasSize(3).allSatisfy(event -> assertThat(event.getFormattedMessage()).contains("from 127.0.0.1").doesNotContain("203.0.113"));
        } finally {
            logger.detachAppender(logged);
        }
    }

    /** Wrong passwords for one user: each failure logged in one line and counted, then 429 before any hash is checked. */
    @Test
    void aWrongPasswordBurstIsLoggedCountedAndAnswered429UntilTheWindowEnds() throws Exception {
        ch.qos.logback.classic.Logger logger = (ch.qos.logback.classic.Logger) LoggerFactory.getLogger(LoginThrottle.class);
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        logger.addAppender(logged);
        try {
            List<Integer> statuses = new ArrayList<>();
            HttpResponse<String> refused = null;
            for (int i = 0; i < 12; i++) {
                HttpResponse<String> response = RunningApp.get(app, "/actuator/health/liveness", "deployer", "wrong-" + i);
                statuses.add(response.statusCode());
                if (response.statusCode() == 429) {
                    refused = response;
                }
            }
            assertThat(statuses.subList(0, 5)).containsOnly(401);
            assertThat(statuses.subList(5, 12)).containsOnly(429);
            assertThat(refused.headers().firstValue("Retry-After")).isPresent();
            assertThat(refused.body()).contains("urn:dlqdesk:problem:too-many-requests");
            assertThat(RunningApp.get(app, "/actuator/health/liveness", "deployer", RunningApp.PASSWORD).statusCode())
                    .as("the right password is not even checked while the user is throttled").isEqualTo(429);
            assertThat(LoggedEvents.snapshot(logged)).filteredOn(event -> event.getFormattedMessage().startsWith("failed login for user 'deployer' from 127.0.0.1"))
                    .hasSize(5).allSatisfy(event -> assertThat(event.getThrowableProxy()).isNull());
            assertThat(app.getBean(MeterRegistry.class).counter("dlqdesk.security.login.failures", "kind", "basic").count()).isGreaterThanOrEqualTo(5);
            assertThat(RunningApp.get(app, "/api/v1/incidents", "viewer", RunningApp.PASSWORD).statusCode()).as("another user").isEqualTo(200);
            await().atMost(Duration.ofSeconds(15)).until(() ->
                    RunningApp.get(app, "/actuator/health/liveness", "deployer", RunningApp.PASSWORD).statusCode() == 200);
        } finally {
            logger.detachAppender(logged);
        }
    }

    /** {@code Metrics}, {@code metrics }, {@code METRICS} and the fullwidth form reach one user: their failures are one count. */
    @Test
    void aUserIsThrottledAsOneWhateverTheSpellingOfItsName() throws Exception {
        List<String> spellings = List.of("Metrics", "metrics ", "METRICS", "\uFF4D\uFF45\uFF54\uFF52\uFF49\uFF43\uFF53", " metrics");
        for (String spelling : spellings) {
            assertThat(RunningApp.get(app, "/actuator/prometheus", spelling, "wrong").statusCode()).as(spelling).isEqualTo(401);
        }
        assertThat(RunningApp.get(app, "/actuator/prometheus", "metrics", RunningApp.PASSWORD).statusCode())
                .as("five failures of the one user 'metrics'").isEqualTo(429);
        assertThat(RunningApp.get(app, "/api/v1/incidents", "operator", RunningApp.PASSWORD).statusCode()).as("another user").isEqualTo(200);
        await().atMost(Duration.ofSeconds(15)).until(() ->
                RunningApp.get(app, "/actuator/prometheus", "metrics", RunningApp.PASSWORD).statusCode() == 200);
    }

    /**
     * Invented user names from many connections at once (each costs a dummy bcrypt check) while a real user reads and the
     * pipeline's and Prometheus's service tokens call: the invented names wait or get 429 among themselves.
     */
    @Test
    void aFloodOfInventedUserNamesLeavesTheRealUsersAndTheServiceTokensAlone() throws Exception {
        AtomicBoolean flooding = new AtomicBoolean(true);
        List<Integer> floodStatuses = new CopyOnWriteArrayList<>();
        List<Thread> flooders = new ArrayList<>();
        for (int t = 0; t < 48; t++) {
            Thread flooder = new Thread(() -> {
                HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
                while (flooding.get()) {
                    String ghost = "ghost-" + java.util.UUID.randomUUID();
                    try {
                        floodStatuses.add(client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                                        + app.getEnvironment().getProperty("local.server.port") + "/api/v1/incidents"))
                                .header("Authorization", "Basic " + Base64.getEncoder().encodeToString((ghost + ":x").getBytes(StandardCharsets.UTF_8)))
                                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.discarding()).statusCode());
                    } catch (Exception e) {
                        floodStatuses.add(-1);
                    }
                }
            });
            flooder.start();
            flooders.add(flooder);
        }
        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> floodStatuses.contains(429));
            List<Integer> viewer = new ArrayList<>();
            List<Integer> scrapes = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                viewer.add(RunningApp.get(app, "/api/v1/incidents", "viewer", RunningApp.PASSWORD).statusCode());
                scrapes.add(RunningApp.get(app, "/actuator/prometheus", "Bearer " + METRICS_TOKEN).statusCode());
            }
            int check = RunningApp.get(app, "/api/v1/rollback-readiness", "Bearer " + DEPLOYER_TOKEN).statusCode();
            assertThat(viewer).as("the real user during the flood").containsOnly(200);
            assertThat(scrapes).as("the scraper's token during the flood").containsOnly(200);
            assertThat(check).as("the pipeline's token during the flood gets a verdict").isIn(200, 409, 503);
        } finally {
            flooding.set(false);
            for (Thread flooder : flooders) {
                flooder.join(60_000);
            }
        }
        assertThat(floodStatuses).as("invented names are refused: 401 after a check, 429 when their checks are busy")
                .isNotEmpty().containsOnly(401, 429);
    }

    /** A service token has its one role: the pipeline's reads rollback readiness, the scraper's the metrics, neither anything else. */
    @Test
    void aServiceTokenReadsWhatItsRoleAllowsAndNothingElse() throws Exception {
        assertThat(RunningApp.get(app, "/api/v1/rollback-readiness", "Bearer " + DEPLOYER_TOKEN).statusCode()).isIn(200, 409, 503);
        assertThat(RunningApp.get(app, "/api/v1/incidents", "Bearer " + DEPLOYER_TOKEN).statusCode()).isEqualTo(403);
        assertThat(RunningApp.get(app, "/actuator/prometheus", "Bearer " + DEPLOYER_TOKEN).statusCode()).isEqualTo(403);
        assertThat(RunningApp.get(app, "/actuator/prometheus", "Bearer " + METRICS_TOKEN).statusCode()).isEqualTo(200);
        assertThat(RunningApp.get(app, "/api/v1/rollback-readiness", "Bearer " + METRICS_TOKEN).statusCode()).isEqualTo(403);
        HttpResponse<String> unknown = RunningApp.get(app, "/actuator/prometheus", "Bearer dlqdesk_" + "00".repeat(32));
        assertThat(unknown.statusCode()).isEqualTo(401);
        assertThat(unknown.body()).contains("urn:dlqdesk:problem:unauthenticated", "not known here");
        HttpResponse<String> hashAsToken = RunningApp.get(app, "/actuator/prometheus", "Bearer dlqdesk_" + sha256(METRICS_TOKEN));
        assertThat(hashAsToken.statusCode()).as("the configured hash is no token").isEqualTo(401);
    }

    /** Bytes are refused before they are read (413), with or without a Content-Length; a body within them is read. */
    @Test
    void aCommandBodyBeyondItsBytesIsA413AndOneWithinThemIsRead() throws Exception {
        String unknown = "/api/v1/incidents/" + IncidentId.of(new FailureKey("limits-" + System.nanoTime(), 0, 0, "g")).value() + "/acknowledge";
        String big = "{\"reason\":\"" + "r".repeat(100_000) + "\"}";
        HttpResponse<String> declared = RunningApp.post(app, unknown, "operator", big);
        assertThat(declared.statusCode()).isEqualTo(413);
        assertThat(declared.body()).contains("urn:dlqdesk:problem:too-large", "at most 16384");
        HttpResponse<String> chunked = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                        + app.getEnvironment().getProperty("local.server.port") + unknown))
                .header("Authorization", "Basic " + Base64.getEncoder().encodeToString(("operator:" + RunningApp.PASSWORD).getBytes(StandardCharsets.UTF_8)))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(big.getBytes(StandardCharsets.UTF_8)))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(chunked.statusCode()).as("no Content-Length: stopped while read").isEqualTo(413);
        assertThat(chunked.body()).contains("urn:dlqdesk:problem:too-large");
        // the path as the controllers see it, not as it was spelt: %61 is an 'a' to Spring MVC and to the limit alike
        HttpResponse<String> encoded = RunningApp.post(app, unknown.replace("/api/", "/%61pi/"), "operator", big);
        assertThat(encoded.statusCode()).as("an encoded path is limited too").isEqualTo(413);
        assertThat(RunningApp.post(app, unknown.replace("/api/", "/%61pi/"), "operator", "{\"reason\":\"a\"}").statusCode())
                .as("and reaches the same endpoint when within the limit").isEqualTo(404);
        assertThat(RunningApp.post(app, unknown, "operator", "{\"reason\":\"" + "r".repeat(1_500) + "\"}").statusCode())
                .as("read, then no such incident").isEqualTo(404);
    }

    /** Nothing here takes a file: multipart is off, so no request (a sign-in form's least of all) is parsed into parts on disk. */
    @Test
    void multipartRequestsAreNotParsed() throws Exception {
        assertThat(app.getBeansOfType(jakarta.servlet.MultipartConfigElement.class)).as("no multipart configuration").isEmpty();
        assertThat(app.getBeansOfType(org.springframework.web.multipart.MultipartResolver.class)).as("no multipart resolver").isEmpty();
        String boundary = "b" + System.nanoTime();
        String form = "--" + boundary + "\r\nContent-Disposition: form-data; name=\"username\"\r\n\r\n" + "u".repeat(200_000)
                + "\r\n--" + boundary + "--\r\n";
        HttpResponse<String> login = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                        + app.getEnvironment().getProperty("local.server.port") + "/login"))
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(login.statusCode()).as("refused (no CSRF token was read from it), not parsed").isIn(302, 400, 403);
    }

    /** Within its bytes, a body still has bounded fields: a bounded number of tokens and none unknown (nesting: RequestLimitsTest). */
    @Test
    void aBodyWithTooManyTokensOrAnUnknownFieldIsA400ThatNamesIt() throws Exception {
        String unknown = "/api/v1/incidents/" + IncidentId.of(new FailureKey("fields-" + System.nanoTime(), 0, 0, "g")).value() + "/acknowledge";
        HttpResponse<String> misspelt = RunningApp.post(app, unknown, "operator", "{\"reason\":\"a\",\"reson\":\"b\"}");
        assertThat(misspelt.statusCode()).isEqualTo(400);
        assertThat(misspelt.body()).contains("urn:dlqdesk:problem:invalid-input", "'reson'");
        // 600 KB of one-letter ids: within a job's bytes, beyond its tokens
        String manyTokens = "{\"reason\":\"r\",\"incidentIds\":[" + "\"a\",".repeat(150_000) + "\"a\"]}";
        HttpResponse<String> tokens = RunningApp.post(app, "/api/v1/replay-jobs", "operator", manyTokens);
        assertThat(tokens.statusCode()).isEqualTo(400);
        assertThat(tokens.body()).contains("urn:dlqdesk:problem:invalid-input", "Token count");
        HttpResponse<String> fewTokens = RunningApp.post(app, "/api/v1/replay-jobs", "operator",
                "{\"reason\":\"r\",\"dryRun\":true,\"incidentIds\":[" + "\"a\",".repeat(1_000) + "\"a\"]}");
        assertThat(fewTokens.body()).as("read: the ids themselves are what is wrong").doesNotContain("Token count", "too-large")
                .contains("urn:dlqdesk:problem:invalid-input");
        assertThat(RunningApp.post(app, unknown, "operator", "{\"reason\":\"a\"}").statusCode()).as("read, then no such incident").isEqualTo(404);
    }

    private static CompletableFuture<Timed> timedAsync(HttpClient client, String path, String user) {
        long start = System.nanoTime();
        return client.sendAsync(request(path, user), HttpResponse.BodyHandlers.ofString())
                .thenApply(response -> new Timed(response.statusCode(), (System.nanoTime() - start) / 1_000_000, response.body(),
                        response.headers().firstValue("Retry-After").orElse("")))
                .exceptionally(e -> new Timed(-1, (System.nanoTime() - start) / 1_000_000, e.toString(), ""));
    }

    private static Timed call(String path, String user) {
        return timed(HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build(), path, user);
    }

    private static Timed timed(HttpClient client, String path, String user) {
        long start = System.nanoTime();
        try {
            HttpResponse<String> response = client.send(request(path, user), HttpResponse.BodyHandlers.ofString());
            return new Timed(response.statusCode(), (System.nanoTime() - start) / 1_000_000, response.body(),
                    response.headers().firstValue("Retry-After").orElse(""));
        } catch (Exception e) {
            return new Timed(-1, (System.nanoTime() - start) / 1_000_000, e.toString(), "");
        }
    }

    private static HttpRequest request(String path, String user) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.getEnvironment().getProperty("local.server.port") + path))
                .timeout(Duration.ofSeconds(90));
        if (user != null) {
            request.header("Authorization", "Basic " + Base64.getEncoder().encodeToString((user + ":" + RunningApp.PASSWORD)
                    .getBytes(StandardCharsets.UTF_8)));
        }
        return request.build();
    }
}

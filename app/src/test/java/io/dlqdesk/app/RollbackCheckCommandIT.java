package io.dlqdesk.app;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The command-line check (the built {@code rollback-checker-<version>-cli.jar}, in its own JVM, configured
 * like the service) gives the verdict the endpoint gives for the same state, with exit code 0/1/2.
 */
@RealInfrastructure
class RollbackCheckCommandIT {

    private static final String NONCE = "cli" + System.nanoTime();
    /** Only the report on stdout: anything before or after it fails the parse. */
    private static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private static ConfigurableApplicationContext app;
    private static KafkaBroker broker;
    private static Map<String, Object> configuration;

    @BeforeAll
    static void start(TestDatabase database, KafkaBroker kafka) throws Exception {
        broker = kafka;
        IngestLedger.createTopic(broker, "it-" + NONCE + "-orders.dlq", 1, Map.of());
        Map<String, Object> shared = Map.of(
                "dlqdesk.ingest.topic-pattern", "it-" + NONCE + "-.*\\.dlq",
                "dlqdesk.ingest.group-id", "ingest-" + NONCE,
                "dlqdesk.rollback.observation-interval", "300ms",
                "dlqdesk.rollback.request-timeout", "3s");
        Map<String, Object> service = new HashMap<>(shared);
        service.put("dlqdesk.events-topic", "it-" + NONCE + "-incident-events");
        app = RunningApp.start(database, broker, service);
        // what a deploy pipeline gives the command: the service's database, brokers and ingest settings
        configuration = new HashMap<>(shared);
        configuration.put("spring.datasource.url", database.jdbcUrl());
        configuration.put("spring.datasource.username", database.username());
        configuration.put("spring.datasource.password", database.password());
        configuration.put("spring.kafka.bootstrap-servers", broker.bootstrapServers());
    }

    @AfterAll
    static void stop() {
        app.close();
    }

    @Test
    void readyFromBothWithExitCodeZero() throws Exception {
        RollbackReadinessIT.Check endpoint = endpoint();
        Run command = command(configuration);

        assertThat(endpoint.verdict()).as(endpoint.body()).isEqualTo("READY");
        assertThat(command.exitCode()).as(command.stderr()).isZero();
        assertSameVerdict(command, endpoint);
    }

    @Test
    void notReadyFromBothWithExitCodeOne() throws Exception {
        JdbcTemplate jdbc = app.getBean(JdbcTemplate.class);
        // the replay switch is off (as shipped), so the poller leaves the row alone
        String replayId = Replays.strayPendingRow(jdbc, NONCE);
        try {
            RollbackReadinessIT.Check endpoint = endpoint();
            Run command = command(configuration);

            assertThat(endpoint.status()).isEqualTo(409);
            assertThat(command.exitCode()).as(command.stderr()).isEqualTo(1);
            assertSameVerdict(command, endpoint);
            assertThat(command.report().path("conditions").get(0).path("observed").path("pendingOutboxRows").asLong()).isEqualTo(1);
        } finally {
            jdbc.update("DELETE FROM replay_outbox WHERE replay_id = ?", replayId);
        }
    }

    @Test
    void unknownFromBothWithExitCodeTwoWhileTheBrokerIsDown() throws Exception {
        Assumptions.assumeTrue(broker.restartable(), () -> broker.description() + " cannot be stopped by tests");
        broker.stop();
        try {
            RollbackReadinessIT.Check endpoint = endpoint();
            Run command = command(configuration);

            assertThat(endpoint.status()).isEqualTo(503);
            assertThat(command.exitCode()).as(command.stderr()).isEqualTo(2);
            assertSameVerdict(command, endpoint);
        } finally {
            broker.start();
        }
    }

    @Test
    void withoutADatabaseToAskTheCommandSaysUnknownAndWhy() throws Exception {
        Map<String, Object> withoutDatabase = new HashMap<>(configuration);
        withoutDatabase.remove("spring.datasource.url");

        Run command = command(withoutDatabase);

        assertThat(command.exitCode()).isEqualTo(2);
        assertThat(command.report().path("verdict").asText()).isEqualTo("UNKNOWN");
        assertThat(command.report().path("conditions").get(0).path("explanation").asText()).contains("cannot run the check", "spring.datasource.url");
    }

    private static void assertSameVerdict(Run command, RollbackReadinessIT.Check endpoint) {
        assertThat(command.report().path("verdict").asText()).isEqualTo(endpoint.verdict());
        assertThat(statuses(command.report())).isEqualTo(statuses(endpoint.json()));
    }

    private static List<String> statuses(JsonNode report) {
        List<String> statuses = new ArrayList<>();
        report.path("conditions").forEach(condition -> statuses.add(condition.path("condition").asText() + "=" + condition.path("status").asText()));
        return statuses;
    }

    private static RollbackReadinessIT.Check endpoint() throws Exception {
        return RollbackReadinessIT.Check.of(RunningApp.get(app, "/api/v1/rollback-readiness", "deployer", RunningApp.PASSWORD));
    }

    private record Run(int exitCode, JsonNode report, String stderr) {
    }

    /** {@code java -jar rollback-checker-<version>-cli.jar --name=value …}; stdout must be the JSON report and nothing else. */
    private static Run command(Map<String, Object> properties) throws Exception {
        Path jar = Path.of(System.getProperty("rollback.cli.jar", "rollback.cli.jar not set"));
        assertThat(jar).as("the command-line jar (built by `./mvnw -pl rollback-checker package`)").isRegularFile();
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", jar.toString()));
        command.addAll(List.of(RunningApp.arguments(properties)));
        Path stdout = Files.createTempFile("rollback-check", ".json");
        Path stderr = Files.createTempFile("rollback-check", ".log");
        Process process = new ProcessBuilder(command).redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("the command finished").isTrue();
        String output = Files.readString(stdout, StandardCharsets.UTF_8);
        String errors = Files.readString(stderr, StandardCharsets.UTF_8);
        Files.delete(stdout);
        Files.delete(stderr);
        return new Run(process.exitValue(), JSON.readTree(output), errors);
    }
}

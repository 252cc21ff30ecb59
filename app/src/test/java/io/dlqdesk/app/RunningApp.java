package io.dlqdesk.app;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.OpenIncidentCommand;
import io.dlqdesk.domain.record.FailedRecord;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.domain.record.RecordKey;
import io.dlqdesk.domain.record.RecordLocation;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.TestDatabase;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/** Starts the whole application on a test's real database and broker, as a user would configure it. */
final class RunningApp {

    /** Every test user (viewer, operator, admin, deployer, metrics: named after their role) has this password. */
    static final String PASSWORD = "test-password";
    static final String PASSWORD_HASH = "{bcrypt}" + new BCryptPasswordEncoder(4).encode(PASSWORD);

    private RunningApp() {
    }

    static Map<String, Object> properties(TestDatabase database, KafkaBroker broker, Map<String, Object> extra) {
        Map<String, Object> properties = new HashMap<>();
        properties.put("spring.datasource.url", database.jdbcUrl());
        properties.put("spring.datasource.username", database.username());
        properties.put("spring.datasource.password", database.password());
        properties.put("spring.kafka.bootstrap-servers", broker.bootstrapServers());
        properties.put("server.port", "0");
        properties.put("server.address", "127.0.0.1");
        String[] roles = {"VIEWER", "OPERATOR", "ADMIN", "DEPLOYER", "METRICS"};
        for (int i = 0; i < roles.length; i++) {
            properties.put("dlqdesk.security.users[" + i + "].name", roles[i].toLowerCase(Locale.ROOT));
            properties.put("dlqdesk.security.users[" + i + "].password-hash", PASSWORD_HASH);
            properties.put("dlqdesk.security.users[" + i + "].roles", roles[i]);
        }
        // the shipped default allows no topic (ShippedDefaultsIT); tests replay their own topics unless they say otherwise
        properties.put("dlqdesk.replay.allowed-topics", ".*");
        properties.putAll(extra);
        return properties;
    }

    /** Adds user {@code name} with {@code roles} (comma-separated) and the test password, at {@code index} past the five above. */
    static void user(Map<String, Object> settings, int index, String name, String roles) {
        settings.put("dlqdesk.security.users[" + index + "].name", name);
        settings.put("dlqdesk.security.users[" + index + "].password-hash", PASSWORD_HASH);
        settings.put("dlqdesk.security.users[" + index + "].roles", roles);
    }

    static ConfigurableApplicationContext start(TestDatabase database, KafkaBroker broker, Map<String, Object> extra) {
        return run(properties(database, broker, extra));
    }

    /** Opens an incident for {@code key} with only the mandatory facts (no eventId, timestamp or hash). */
    static IncidentId openIncident(ConfigurableApplicationContext app, FailureKey key, Instant detectedAt) {
        app.getBean(CommandGateway.class).sendAndWait(OpenIncidentCommand.forFailure(
                new FailedRecord(key, new RecordLocation(key.topic() + ".dlq", 0, key.offset()), RecordKey.NONE, null, null, null, null),
                Duration.ofDays(7), detectedAt));
        return IncidentId.of(key);
    }

    /** As command-line arguments: they take precedence over the shipped application.yml. */
    static ConfigurableApplicationContext run(Map<String, Object> properties) {
        return new SpringApplicationBuilder(DlqDeskApplication.class).run(arguments(properties));
    }

    /** With singletons of the test's own registered before the application's beans (a clock, say). */
    static ConfigurableApplicationContext start(TestDatabase database, KafkaBroker broker, Map<String, Object> extra, Map<String, Object> beans) {
        return new SpringApplicationBuilder(DlqDeskApplication.class)
                .initializers(context -> beans.forEach(context.getBeanFactory()::registerSingleton))
                .run(arguments(properties(database, broker, extra)));
    }

    /** The properties as command-line arguments, as {@link #run} and the command-line rollback check take them. */
    static String[] arguments(Map<String, Object> properties) {
        return properties.entrySet().stream().map(entry -> "--" + entry.getKey() + "=" + entry.getValue()).toArray(String[]::new);
    }

    /** Anonymous. */
    static HttpResponse<String> get(ConfigurableApplicationContext app, String path) throws Exception {
        return send(app, request(app, path).build());
    }

    /** Anonymous, naming the media types it accepts as a browser or a client would. */
    static HttpResponse<String> getAccepting(ConfigurableApplicationContext app, String path, String accept) throws Exception {
        return send(app, request(app, path).header("Accept", accept).build());
    }

    /** As a test user, with HTTP Basic. */
    static HttpResponse<String> get(ConfigurableApplicationContext app, String path, String user, String password) throws Exception {
        return get(app, path, basic(user, password));
    }

    /** With the given Authorization header value. */
    static HttpResponse<String> get(ConfigurableApplicationContext app, String path, String authorization) throws Exception {
        return send(app, request(app, path).header("Authorization", authorization).build());
    }

    private static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    /** A JSON POST as a test user, with HTTP Basic. */
    static HttpResponse<String> post(ConfigurableApplicationContext app, String path, String user, String json) throws Exception {
        return send(app, request(app, path).header("Authorization", basic(user, PASSWORD)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build());
    }

    /** A JSON PUT as a test user, with HTTP Basic. */
    static HttpResponse<String> put(ConfigurableApplicationContext app, String path, String user, String json) throws Exception {
        return send(app, request(app, path).header("Authorization", basic(user, PASSWORD)).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(json)).build());
    }

    private static HttpRequest.Builder request(ConfigurableApplicationContext app, String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.getEnvironment().getProperty("local.server.port") + path));
    }

    private static HttpResponse<String> send(ConfigurableApplicationContext app, HttpRequest request) throws Exception {
        return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
    }
}

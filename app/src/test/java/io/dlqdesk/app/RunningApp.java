package io.dlqdesk.app;

import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.TestDatabase;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.Map;

/** Starts the whole application on a test's real database and broker, as a user would configure it. */
final class RunningApp {

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
        properties.putAll(extra);
        return properties;
    }

    static ConfigurableApplicationContext start(TestDatabase database, KafkaBroker broker, Map<String, Object> extra) {
        return run(properties(database, broker, extra));
    }

    /** As command-line arguments: they take precedence over the shipped application.yml. */
    static ConfigurableApplicationContext run(Map<String, Object> properties) {
        String[] args = properties.entrySet().stream().map(entry -> "--" + entry.getKey() + "=" + entry.getValue()).toArray(String[]::new);
        return new SpringApplicationBuilder(DlqDeskApplication.class).run(args);
    }

    static HttpResponse<String> get(ConfigurableApplicationContext app, String path) throws Exception {
        String port = app.getEnvironment().getProperty("local.server.port");
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}

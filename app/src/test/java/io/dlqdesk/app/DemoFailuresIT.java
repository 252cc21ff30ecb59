package io.dlqdesk.app;

import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The local run's demo flag: real listeners fail, their DLQ records become incidents a newcomer can open. */
@RealInfrastructure
class DemoFailuresIT {

    @Test
    void withTheDemoFlagFailuresOfTwoServicesBecomeIncidents(TestDatabase database, KafkaBroker broker) throws Exception {
        // only the demo's DLQ topics: other tests' topics on the shared broker are not this test's business
        Map<String, Object> properties = RunningApp.properties(database, broker, Map.of(DemoFailures.ENABLED, "true",
                "dlqdesk.events-topic", "it-demo-" + System.nanoTime(), "dlqdesk.ingest.topic-pattern", "demo\\..*\\.dlq"));
        String[] args = properties.entrySet().stream().map(entry -> "--" + entry.getKey() + "=" + entry.getValue()).toArray(String[]::new);
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(DlqDeskApplication.class).listeners(new DemoFailures()).run(args)) {
            await().atMost(Duration.ofSeconds(90)).until(() -> Replays.incidentsOf(app, DemoFailures.ORDERS).size() == 2
                    && Replays.incidentsOf(app, DemoFailures.PAYMENTS).size() == 2);
            assertThat(RunningApp.get(app, "/api/v1/exception-groups", "viewer", RunningApp.PASSWORD).body())
                    .contains("no price for SKU-<n> in price list <n>-<n>", "card declined by issuer for payment pay-<n>");
        }
    }
}

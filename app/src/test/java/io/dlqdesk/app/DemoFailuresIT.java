package io.dlqdesk.app;

import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The local run's demo flag: real listeners fail, their DLQ records become incidents a newcomer can open; and step 3 of
 * README's tour holds: a replayed payment, resolved in time, is reopened by its re-failure.
 */
@RealInfrastructure
class DemoFailuresIT {

    @Test
    void withTheDemoFlagFailuresOfTwoServicesBecomeIncidents(TestDatabase database, KafkaBroker broker) throws Exception {
        // the demo's services and records on topics of this class's own (DocumentedCommandsIT uses demo.* on the shared broker,
        // and its replayed payments, each retried for 30 s, would hold up this class's), read by an ingest group of its own
        String nonce = Long.toHexString(System.nanoTime());
        DemoFailures demo = new DemoFailures("it-demo-" + nonce);
        Map<String, Object> properties = RunningApp.properties(database, broker, Map.of(DemoFailures.ENABLED, "true",
                "dlqdesk.events-topic", "it-demo-" + nonce + "-incident-events",
                "dlqdesk.ingest.topic-pattern", ("it-demo-" + nonce).replace("-", "\\-") + "\\..*\\.dlq",
                "dlqdesk.ingest.group-id", "it-demo-ingest-" + nonce));
        String[] args = properties.entrySet().stream().map(entry -> "--" + entry.getKey() + "=" + entry.getValue()).toArray(String[]::new);
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(DlqDeskApplication.class).listeners(demo).run(args)) {
            // two of each service's records fail; the ones they take open nothing
            await().atMost(Duration.ofSeconds(90)).until(() -> {
                for (String eventId : List.of("evt-order-1002", "evt-order-1003", "evt-pay-2002", "evt-pay-2003")) {
                    if (incidentsWithEventId(app, eventId) != 1) {
                        return false;
                    }
                }
                return true;
            });
            assertThat(incidentsWithEventId(app, "evt-order-1001") + incidentsWithEventId(app, "evt-pay-2001"))
                    .as("records the services took open nothing").isZero();
            assertThat(RunningApp.get(app, "/api/v1/exception-groups", "viewer", RunningApp.PASSWORD).body())
                    .contains("no price for SKU-<n> in price list <n>-<n>", "card declined by issuer for payment pay-<n>");

            // the tour, step 3: the payments service retries a replayed record before dead-lettering it, so there is time
            Replays.setSwitch(app, true);
            String payment = incidentWithEventId(app, "evt-pay-2002");
            assertThat(RunningApp.post(app, "/api/v1/incidents/" + payment + "/acknowledge", "operator", REASON).statusCode()).isEqualTo(204);
            assertThat(Replays.requestReplay(app, payment).statusCode()).isEqualTo(202);
            await().atMost(Duration.ofSeconds(30)).until(() -> RunningApp.get(app, "/api/v1/incidents/" + payment, "viewer", RunningApp.PASSWORD)
                    .body().contains("\"publishStatus\":\"PUBLISHED\""));
            assertThat(RunningApp.post(app, "/api/v1/incidents/" + payment + "/resolve", "operator", REASON).statusCode())
                    .as("resolved before the re-failure is back").isEqualTo(204);
            await().atMost(Duration.ofSeconds(90)).alias("the re-failure reopens " + payment)
                    .conditionEvaluationListener(condition -> {
                        if (condition.getRemainingTimeInMS() <= condition.getPollInterval().toMillis()) {
                            System.out.println("[DemoFailuresIT] events of " + payment + ": " + eventTypes(app, payment));
                        }
                    })
                    .until(() -> Replays.events(app, payment, "IncidentReopened") == 1);
            await().atMost(Duration.ofSeconds(30)).until(() -> "OPEN".equals(Replays.statusOf(app, payment)));
            assertThat(Replays.events(app, payment, "RetryFailureCorrelated")).as("the re-failure joined its incident").isEqualTo(1);
        }
    }

    private static final String REASON = "{\"reason\":\"tour\"}";

    private static List<String> eventTypes(ConfigurableApplicationContext app, String incidentId) {
        return app.getBean(JdbcTemplate.class).queryForList("SELECT payload_type FROM domain_event_entry WHERE aggregate_identifier = ? "
                + "ORDER BY sequence_number", String.class, incidentId).stream().map(type -> type.substring(type.lastIndexOf('.') + 1)).toList();
    }

    private static int incidentsWithEventId(ConfigurableApplicationContext app, String eventId) throws Exception {
        Matcher total = Pattern.compile("\"total\":(\\d+)")
                .matcher(RunningApp.get(app, "/api/v1/incidents?eventId=" + eventId, "viewer", RunningApp.PASSWORD).body());
        return total.find() ? Integer.parseInt(total.group(1)) : -1;
    }

    private static String incidentWithEventId(ConfigurableApplicationContext app, String eventId) throws Exception {
        String body = RunningApp.get(app, "/api/v1/incidents?eventId=" + eventId, "viewer", RunningApp.PASSWORD).body();
        Matcher id = Pattern.compile("\"incidentId\":\"(inc-[0-9a-f]{32})\"").matcher(body);
        assertThat(id.find()).as(body).isTrue();
        return id.group(1);
    }
}

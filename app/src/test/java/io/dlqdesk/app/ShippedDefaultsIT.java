package io.dlqdesk.app;

import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A fresh database under the shipped configuration (RunningApp sets only where the database, the
 * broker and the port are, and test users): replay is off until an admin turns it on.
 */
@RealInfrastructure
class ShippedDefaultsIT {

    /** The replay switch and the allowed topics as shipped: off, and none (the tests' own RunningApp default is lifted here). */
    @Test
    void aFreshDatabaseHasTheReplaySwitchOffUntilAnAdminTurnsItOnAndNoTopicIsAllowedUntilConfigured(TestDatabase database, KafkaBroker broker)
            throws Exception {
        String nonce = "s" + System.nanoTime();
        Map<String, Object> shipped = RunningApp.properties(database, broker, Map.of(
                "dlqdesk.ingest.topic-pattern", "it-" + nonce + "-.*\\.dlq",
                "dlqdesk.events-topic", "it-" + nonce + "-incident-events"));
        shipped.remove("dlqdesk.replay.allowed-topics");
        try (ConfigurableApplicationContext app = RunningApp.run(shipped)) {
            HttpResponse<String> state = RunningApp.get(app, "/api/v1/replay-switch", "viewer", RunningApp.PASSWORD);
            assertThat(state.statusCode()).as(state.body()).isEqualTo(200);
            assertThat(state.body()).contains("\"on\":false");
            String id = RunningApp.openIncident(app, new FailureKey("it-" + nonce + "-orders", 0, 1, "billing"), Instant.now()).value();
            // a replay is asked for an incident the list shows: wait for the read model
            await().atMost(Duration.ofSeconds(60)).until(() ->
                    RunningApp.get(app, "/api/v1/incidents/" + id, "viewer", RunningApp.PASSWORD).statusCode() == 200);
            HttpResponse<String> refused = Replays.requestReplay(app, id);
            assertThat(refused.statusCode()).as(refused.body()).isEqualTo(422);
            assertThat(refused.body()).contains("\"REPLAY_SWITCH_OFF\"");

            Replays.setSwitch(app, true);
            assertThat(RunningApp.get(app, "/api/v1/replay-switch", "viewer", RunningApp.PASSWORD).body()).contains("\"on\":true");
            HttpResponse<String> notAllowed = Replays.requestReplay(app, id);
            assertThat(notAllowed.body()).doesNotContain("REPLAY_SWITCH_OFF").contains("\"TOPIC_NOT_ALLOWED\"");
        }
    }
}

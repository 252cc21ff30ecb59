package io.dlqdesk.app;

import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** The retention guard in the running service: start-up refusal, the report endpoint, the metric. */
@RealInfrastructure
class RetentionGuardIT {

    private static final Duration WAIT = Duration.ofSeconds(60);

    @Test
    void aTopicSeenInAnIncidentIsReportedAndFlaggedWhenItsRetentionIsShorterThanTheWindow(TestDatabase database, KafkaBroker broker)
            throws Exception {
        String nonce = "g" + System.nanoTime();
        String shortLived = "orders-" + nonce;
        String configured = "payments-" + nonce;
        IngestLedger.createTopic(broker, shortLived, 1, Map.of("retention.ms", "86400000"));
        IngestLedger.createTopic(broker, configured, 1, Map.of());

        try (ConfigurableApplicationContext app = RunningApp.start(database, broker, Map.of(
                "dlqdesk.retention.topics", configured,
                "dlqdesk.retention.check-interval", "1s",
                "dlqdesk.events-topic", "it-" + nonce + "-incident-events"))) {
            RunningApp.openIncident(app, new FailureKey(shortLived, 0, 5, "billing"), Instant.now());

            await().atMost(WAIT).untilAsserted(() -> {
                HttpResponse<String> response = RunningApp.get(app, "/api/v1/topics/retention", "viewer", RunningApp.PASSWORD);
                assertThat(response.statusCode()).isEqualTo(200);
                assertThat(response.body()).contains("\"topic\":\"" + shortLived + "\"").contains("RETENTION_SHORTER_THAN_REPLAY_WINDOW")
                        .contains("\"value\":\"86400000\",\"source\":\"dynamic-topic\"")
                        .contains("\"topic\":\"" + configured + "\"");
                Gauge flag = app.getBean(MeterRegistry.class).find("dlq.retention.flag").tag("topic", shortLived)
                        .tag("flag", "RETENTION_SHORTER_THAN_REPLAY_WINDOW").gauge();
                assertThat(flag).isNotNull();
                assertThat(flag.value()).isEqualTo(1.0);
            });
        }
    }

    @Test
    void theServiceRefusesToStartWhenTheReplayWindowAndMarginsExceedTheIdempotencyRetention(TestDatabase database, KafkaBroker broker) {
        assertThatThrownBy(() -> RunningApp.start(database, broker, Map.of(
                "dlqdesk.replay-window", "7d",
                "dlqdesk.retention.consumer-idempotency-retention", "7d")).close())
                .hasStackTraceContaining("dlqdesk.retention.consumer-idempotency-retention=PT168H")
                .hasStackTraceContaining("dlqdesk.replay-window=PT168H");
    }

    @Test
    void theServiceRefusesToStartWithAZeroMargin(TestDatabase database, KafkaBroker broker) {
        assertThatThrownBy(() -> RunningApp.start(database, broker, Map.of("dlqdesk.retention.clock-skew-margin", "0s")).close())
                .hasStackTraceContaining("dlqdesk.retention.clock-skew-margin=PT0S must be positive");
    }
}

package io.dlqdesk.app;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import org.axonframework.config.ConfigurerModule;
import org.axonframework.extensions.kafka.eventhandling.producer.KafkaPublisher;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The events topic when the broker goes away: the Kafka publisher's sends fail for longer than its delivery timeout,
 * its batches roll back with their tokens, and every event stored meanwhile reaches the topic once the broker is back.
 */
@RealInfrastructure
class EventsTopicOutageIT {

    private static final Duration WAIT = Duration.ofSeconds(120);

    @Test
    void eventsStoredWhileTheBrokerIsDownAreAllPublishedOnceItIsBack(TestDatabase database, KafkaBroker broker) {
        Assumptions.assumeTrue(broker.restartable(), () -> broker.description() + " cannot be stopped by tests");
        String topic = "outage-incident-events-" + System.nanoTime();
        PublishOutcomes outcomes = new PublishOutcomes();
        ConfigurerModule counted = configurer -> configurer.configureMessageMonitor(KafkaPublisher.class, "kafkaPublisher",
                (configuration, componentType, componentName) -> outcomes);
        Map<String, Object> properties = Map.of(
                "dlqdesk.events-topic", topic,
                "dlqdesk.ingest.enabled", "false",
                // sends fail within seconds while the broker is down, not the shipped minute
                "axon.kafka.producer.properties.delivery.timeout.ms", "4000",
                "axon.kafka.producer.properties.request.timeout.ms", "1500",
                "axon.kafka.producer.properties.max.block.ms", "3000");

        try (ConfigurableApplicationContext app = RunningApp.start(database, broker, properties, Map.of("countedPublishes", counted))) {
            Instant detectedAt = Instant.parse("2026-12-02T07:00:00Z");
            IncidentId before = RunningApp.openIncident(app, new FailureKey("orders", 0, 1L, "billing"), detectedAt);
            EventsTopic.readUntil(broker, topic, WAIT, records -> EventsTopic.mentions(records, before.value()));

            List<IncidentId> during;
            broker.stop();
            try {
                during = IntStream.range(0, 40).mapToObj(i -> RunningApp.openIncident(app,
                        new FailureKey("orders", i % 3, 100L + i, "billing"), detectedAt)).toList();
                await().atMost(WAIT).until(() -> outcomes.count("failed") > 0); // a batch was refused, not merely slow
            } finally {
                broker.start();
            }

            EventsTopic.readUntil(broker, topic, WAIT, records -> during.stream().allMatch(id -> EventsTopic.mentions(records, id.value())));
            assertThat(outcomes.count("acknowledged")).as("every event acknowledged at least once").isGreaterThanOrEqualTo(during.size() + 1);
        }
    }
}

package io.dlqdesk.app;

import io.dlqdesk.domain.api.FailureKey;
import io.dlqdesk.domain.api.IncidentId;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.axonframework.config.ConfigurerModule;
import org.axonframework.extensions.kafka.eventhandling.producer.KafkaPublisher;
import org.axonframework.messaging.Message;
import org.axonframework.monitoring.MessageMonitor;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
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
            awaitOnTopic(broker, topic, Set.of(before.value()));

            List<IncidentId> during;
            broker.stop();
            try {
                during = IntStream.range(0, 40).mapToObj(i -> RunningApp.openIncident(app,
                        new FailureKey("orders", i % 3, 100L + i, "billing"), detectedAt)).toList();
                await().atMost(WAIT).until(() -> outcomes.failures.get() > 0); // a batch was refused, not merely slow
            } finally {
                broker.start();
            }

            awaitOnTopic(broker, topic, during.stream().map(IncidentId::value).collect(java.util.stream.Collectors.toSet()));
            assertThat(outcomes.successes.get()).as("every event acknowledged at least once").isGreaterThanOrEqualTo(during.size() + 1);
        }
    }

    /** Reads the topic from its start until every incident in {@code expected} has an event on it. */
    private static void awaitOnTopic(KafkaBroker broker, String topic, Set<String> expected) {
        Set<String> seen = new HashSet<>();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, "outage-reader-" + System.nanoTime(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false),
                new StringDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(topic));
            await().atMost(WAIT).until(() -> {
                consumer.poll(Duration.ofMillis(250)).forEach(record -> expected.stream()
                        .filter(id -> new String(record.value(), StandardCharsets.UTF_8).contains(id)).forEach(seen::add));
                return seen.containsAll(expected);
            });
        }
    }

    /** What the publisher reported per event: acknowledged, or not. */
    private static final class PublishOutcomes implements MessageMonitor<Message<?>> {

        final AtomicInteger successes = new AtomicInteger();
        final AtomicInteger failures = new AtomicInteger();

        @Override
        public MonitorCallback onMessageIngested(Message<?> message) {
            return new MonitorCallback() {
                @Override
                public void reportSuccess() {
                    successes.incrementAndGet();
                }

                @Override
                public void reportFailure(Throwable cause) {
                    failures.incrementAndGet();
                }

                @Override
                public void reportIgnored() {
                }
            };
        }
    }
}

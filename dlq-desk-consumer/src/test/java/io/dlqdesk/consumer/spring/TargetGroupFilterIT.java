package io.dlqdesk.consumer.spring;

import io.dlqdesk.consumer.MicrometerSkippedReplays;
import io.dlqdesk.consumer.ReplayHeaderNames;
import io.dlqdesk.consumer.ReplayKeys;
import io.dlqdesk.consumer.TrustedOwners;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.TestInfrastructure;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.kafka.annotation.EnableKafka;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.listener.ContainerProperties;
import org.springframework.kafka.support.Acknowledgment;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two Spring Kafka listeners in different groups read one topic, both with
 * {@code @KafkaListener(filter = "replayFilter")} on a container factory left at its defaults
 * ({@code AckMode.BATCH}), as docs/concepts.md ("Consumers") tells users to set it up, or with MANUAL acks and
 * {@code ackDiscarded}. The filter holds key k1 and trusts desk-prod only.
 */
class TargetGroupFilterIT {

    private static final Duration PATIENCE = Duration.ofSeconds(90);
    private static final ReplayKeys KEYS = ReplayKeys.of("k1", "an-example-secret-of-at-least-32-bytes");

    private final KafkaBroker broker = TestInfrastructure.shared().broker();
    private final String nonce = Long.toString(System.nanoTime());
    private final String topic = "orders-" + nonce;
    private final String billing = "billing-" + nonce;
    private final String shipping = "shipping-" + nonce;
    private final TopicPartition partition = new TopicPartition(topic, 0);
    private AnnotationConfigApplicationContext consumers;

    @BeforeEach
    void createTopic() throws Exception {
        try (Admin admin = broker.admin()) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
    }

    @AfterEach
    void stopConsumersAndDeleteTopic() throws Exception {
        if (consumers != null) {
            consumers.close();
        }
        try (Admin admin = broker.admin()) {
            admin.deleteTopics(List.of(topic)).all().get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void aReplayForOneGroupIsProcessedByItAndSkippedAndCommittedPastByTheOther() throws Exception {
        send("plain", null, null);
        // the replay is the partition's last record: nothing after it could carry the other group's commit past it
        long replayOffset = send("replay-for-billing", billing, "desk-prod");

        startConsumers();

        Received received = consumers.getBean(Received.class);
        await().atMost(PATIENCE).until(() -> received.billing.size() == 2 && committed(shipping) == replayOffset + 1);
        assertThat(received.billing).containsExactly("plain", "replay-for-billing");
        assertThat(received.shipping).containsExactly("plain");
        await().atMost(PATIENCE).until(() -> committed(billing) == replayOffset + 1);
        assertThat(skippedCount(shipping, billing)).isEqualTo(1.0);
        assertThat(skippedCount(billing, shipping)).isZero();
    }

    @Test
    void withManualAcksAndAckDiscardedTheOtherGroupCommitsPastTheSkippedReplay() throws Exception {
        send("plain", null, null);
        long replayOffset = send("replay-for-billing", billing, "desk-prod");

        startConsumers(ManualAckListeners.class);

        Received received = consumers.getBean(Received.class);
        await().atMost(PATIENCE).until(() -> received.billing.size() == 2 && committed(shipping) == replayOffset + 1);
        assertThat(received.shipping).containsExactly("plain");
    }

    @Test
    void aForgedReplayForOneGroupIsProcessedByBothGroups() throws Exception {
        send("forged-for-billing", billing, "desk-prod", false);

        startConsumers();

        Received received = consumers.getBean(Received.class);
        await().atMost(PATIENCE).until(() -> received.billing.size() == 1 && received.shipping.size() == 1);
        assertThat(received.shipping).containsExactly("forged-for-billing");
        assertThat(skippedCount(shipping, billing)).isZero();
    }

    @Test
    void aReplayFromAnUntrustedOwnerIsProcessedByBothGroups() throws Exception {
        send("replay-for-billing-from-staging", billing, "desk-staging");

        startConsumers();

        Received received = consumers.getBean(Received.class);
        await().atMost(PATIENCE).until(() -> received.billing.size() == 1 && received.shipping.size() == 1);
        assertThat(received.billing).containsExactly("replay-for-billing-from-staging");
        assertThat(received.shipping).containsExactly("replay-for-billing-from-staging");
        assertThat(skippedCount(shipping, billing)).isZero();
    }

    private void startConsumers() {
        startConsumers(Listeners.class);
    }

    private void startConsumers(Class<?> listeners) {
        boolean manualAcks = listeners == ManualAckListeners.class;
        consumers = new AnnotationConfigApplicationContext();
        consumers.getEnvironment().getPropertySources().addFirst(new MapPropertySource("it", Map.of(
                "it.bootstrap-servers", broker.bootstrapServers(),
                "it.topic", topic,
                "it.billing", billing,
                "it.shipping", shipping,
                "it.manual-acks", manualAcks)));
        consumers.register(Consumers.class, listeners);
        consumers.refresh();
    }

    private long send(String value, String targetGroup, String owner) throws Exception {
        return send(value, targetGroup, owner, true);
    }

    private long send(String value, String targetGroup, String owner, boolean signed) throws Exception {
        RecordHeaders headers = new RecordHeaders();
        if (targetGroup != null) {
            headers.add(ReplayHeaderNames.TARGET_GROUP, targetGroup.getBytes(StandardCharsets.UTF_8));
            headers.add(ReplayHeaderNames.OWNER, owner.getBytes(StandardCharsets.UTF_8));
            if (signed) {
                headers.add(ReplayHeaderNames.SIGNATURE, KEYS.sign("k1", topic, 0, "order-1".getBytes(StandardCharsets.UTF_8),
                        value.getBytes(StandardCharsets.UTF_8), headers).getBytes(StandardCharsets.UTF_8));
            }
        }
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(), new StringSerializer())) {
            return producer.send(new ProducerRecord<>(topic, 0, "order-1", value, headers)).get(30, TimeUnit.SECONDS).offset();
        }
    }

    private long committed(String group) throws Exception {
        Long offset = broker.committedOffset(group, partition);
        return offset == null ? -1 : offset;
    }

    private double skippedCount(String group, String targetGroup) {
        Counter counter = consumers.getBean(SimpleMeterRegistry.class).find(MicrometerSkippedReplays.METER)
                .tags("group", group, "target_group", targetGroup).counter();
        return counter == null ? 0 : counter.count();
    }

    @Configuration
    @EnableKafka
    static class Consumers {

        @Bean
        ConsumerFactory<String, String> consumerFactory(Environment environment) {
            return new DefaultKafkaConsumerFactory<>(Map.of(
                    ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, environment.getRequiredProperty("it.bootstrap-servers"),
                    ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"), new StringDeserializer(), new StringDeserializer());
        }

        @Bean
        ConcurrentKafkaListenerContainerFactory<String, String> kafkaListenerContainerFactory(ConsumerFactory<String, String> consumerFactory,
                                                                                             Environment environment) {
            ConcurrentKafkaListenerContainerFactory<String, String> factory = new ConcurrentKafkaListenerContainerFactory<>();
            factory.setConsumerFactory(consumerFactory);
            if (environment.getProperty("it.manual-acks", Boolean.class, false)) {
                // the one setting users of MANUAL acks need: without it the skipped last record stays uncommitted
                factory.getContainerProperties().setAckMode(ContainerProperties.AckMode.MANUAL);
                factory.setAckDiscarded(true);
            }
            return factory;
        }

        @Bean
        SimpleMeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }

        @Bean
        TargetGroupRecordFilter<String, String> replayFilter(SimpleMeterRegistry meterRegistry) {
            return new TargetGroupRecordFilter<>(KEYS, TrustedOwners.of("desk-prod"), MicrometerSkippedReplays.countingOn(meterRegistry));
        }

        @Bean
        Received received() {
            return new Received();
        }
    }

    static final class Received {
        final List<String> billing = new CopyOnWriteArrayList<>();
        final List<String> shipping = new CopyOnWriteArrayList<>();
    }

    static final class Listeners {

        private final Received received;

        Listeners(Received received) {
            this.received = received;
        }

        @KafkaListener(topics = "${it.topic}", groupId = "${it.billing}", filter = "replayFilter")
        void billing(String value) {
            received.billing.add(value);
        }

        @KafkaListener(topics = "${it.topic}", groupId = "${it.shipping}", filter = "replayFilter")
        void shipping(String value) {
            received.shipping.add(value);
        }
    }

    static final class ManualAckListeners {

        private final Received received;

        ManualAckListeners(Received received) {
            this.received = received;
        }

        @KafkaListener(topics = "${it.topic}", groupId = "${it.billing}", filter = "replayFilter")
        void billing(String value, Acknowledgment ack) {
            received.billing.add(value);
            ack.acknowledge();
        }

        @KafkaListener(topics = "${it.topic}", groupId = "${it.shipping}", filter = "replayFilter")
        void shipping(String value, Acknowledgment ack) {
            received.shipping.add(value);
            ack.acknowledge();
        }
    }
}

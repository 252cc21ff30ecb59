package io.dlqdesk.app;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.ContainerProperties;
import org.springframework.kafka.listener.DeadLetterPublishingRecoverer;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.kafka.listener.KafkaMessageListenerContainer;
import org.springframework.kafka.listener.MessageListener;
import org.springframework.util.backoff.BackOff;
import org.springframework.util.backoff.FixedBackOff;

import java.util.Map;
import java.util.function.Consumer;

/**
 * A Spring Kafka listener as our users write one: a record its handler throws on goes, without
 * retries, to {@code <topic>.dlq} (same partition) through DeadLetterPublishingRecoverer, which
 * copies the record's headers and adds Spring's {@code kafka_dlt-*} ones.
 */
final class DeadLetteringListener implements AutoCloseable {

    private static final FixedBackOff NO_RETRIES = new FixedBackOff(0, 0);

    private final DefaultKafkaProducerFactory<byte[], byte[]> producerFactory;
    private final KafkaMessageListenerContainer<byte[], byte[]> container;

    DeadLetteringListener(String bootstrapServers, String topic, String group, Consumer<ConsumerRecord<byte[], byte[]>> handler) {
        this(bootstrapServers, topic, group, handler, NO_RETRIES);
    }

    /** A replayed record (one with {@code dlq-incident-attempt}) is retried by {@code replayBackOff} before it is dead-lettered. */
    DeadLetteringListener(String bootstrapServers, String topic, String group, Consumer<ConsumerRecord<byte[], byte[]>> handler,
                          BackOff replayBackOff) {
        producerFactory = new DefaultKafkaProducerFactory<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers),
                new ByteArraySerializer(), new ByteArraySerializer());
        DeadLetterPublishingRecoverer recoverer = new DeadLetterPublishingRecoverer(new KafkaTemplate<>(producerFactory),
                (record, e) -> new TopicPartition(record.topic() + ".dlq", record.partition()));
        ContainerProperties properties = new ContainerProperties(topic);
        properties.setGroupId(group);
        properties.setMessageListener((MessageListener<byte[], byte[]>) handler::accept);
        container = new KafkaMessageListenerContainer<>(new DefaultKafkaConsumerFactory<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                // a failure seeks back (DefaultErrorHandler), and the next fetch waits for the broker's answer on the partitions
                // without data: at Kafka's default 500 ms, sixty failures take thirty seconds to reach the DLQ
                ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 50), new ByteArrayDeserializer(), new ByteArrayDeserializer()), properties);
        // the handler's own back-off is the replay one: with a back-off that never retries it would not ask the function at all
        DefaultErrorHandler errors = new DefaultErrorHandler(recoverer, replayBackOff);
        errors.setBackOffFunction((record, e) -> record.headers().lastHeader("dlq-incident-attempt") != null ? replayBackOff : NO_RETRIES);
        container.setCommonErrorHandler(errors);
    }

    void start() {
        container.start();
    }

    void stop() {
        container.stop();
    }

    @Override
    public void close() {
        container.stop();
        producerFactory.destroy();
    }
}

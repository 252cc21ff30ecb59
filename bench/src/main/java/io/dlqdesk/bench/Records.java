package io.dlqdesk.bench;

import io.dlqdesk.testsupport.KafkaBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Kafka plumbing shared by the benchmarks. */
final class Records {

    static final int PARTITIONS = 6;

    private Records() {
    }

    static void createTopics(KafkaBroker broker, List<String> topics) throws Exception {
        try (Admin admin = broker.admin()) {
            admin.createTopics(topics.stream().map(topic -> new NewTopic(topic, PARTITIONS, (short) 1)).toList()).all()
                    .get(60, TimeUnit.SECONDS);
        }
    }

    static KafkaProducer<byte[], byte[]> producer(KafkaBroker broker) {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(), ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true, ProducerConfig.LINGER_MS_CONFIG, 5),
                new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** A reader of one record per poll, for reads at an offset. */
    static KafkaConsumer<byte[], byte[]> reader(KafkaBroker broker) {
        return reader(broker, 1);
    }

    static KafkaConsumer<byte[], byte[]> reader(KafkaBroker broker, int maxPollRecords) {
        return new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false, ConsumerConfig.MAX_POLL_RECORDS_CONFIG, maxPollRecords,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"), new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}

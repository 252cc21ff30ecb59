package io.dlqdesk.app;

import io.dlqdesk.testsupport.KafkaBroker;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import static org.awaitility.Awaitility.await;

/** The incident-events topic as its consumers read it, for the tests that check what the Kafka publisher sent. */
final class EventsTopic {

    private EventsTopic() {
    }

    /** Reads {@code topic} from its start, in a group of its own, until the records read so far satisfy {@code done}. */
    static List<ConsumerRecord<String, byte[]>> readUntil(KafkaBroker broker, String topic, Duration wait,
                                                          Predicate<List<ConsumerRecord<String, byte[]>>> done) {
        List<ConsumerRecord<String, byte[]>> records = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, "events-topic-reader-" + System.nanoTime(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false),
                new StringDeserializer(), new ByteArrayDeserializer())) {
            // by name, not pattern: a pattern subscription would not see the topic created after it for minutes
            consumer.subscribe(List.of(topic));
            await().atMost(wait).until(() -> {
                consumer.poll(Duration.ofMillis(250)).forEach(records::add);
                return done.test(records);
            });
        }
        return records;
    }

    /** Whether an event of {@code incidentId} is among {@code records}. */
    static boolean mentions(List<ConsumerRecord<String, byte[]>> records, String incidentId) {
        return records.stream().anyMatch(record -> new String(record.value(), StandardCharsets.UTF_8).contains(incidentId));
    }
}

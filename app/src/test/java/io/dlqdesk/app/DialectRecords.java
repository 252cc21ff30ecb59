package io.dlqdesk.app;

import io.dlqdesk.testsupport.KafkaBroker;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * What the tests of Apache Kafka's DLQ writers share: reading back the record a real writer wrote, and sending a
 * broken copy of it (a header dropped or rewritten) to see what the desk makes of what no real writer would send.
 */
final class DialectRecords {

    private DialectRecords() {
    }

    /** The first record of a one-partition topic whose headers say it is the DLQ record of {@code source}, waiting up to 60 s. */
    static ConsumerRecord<byte[], byte[]> awaitDeadLetterOf(KafkaBroker broker, String dlqTopic, String offsetHeader, RecordMetadata source)
            throws Exception {
        TopicPartition partition = new TopicPartition(dlqTopic, 0);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(broker)) {
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            List<String> seen = new ArrayList<>();
            while (System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    if (Long.toString(source.offset()).equals(Replays.header(record, offsetHeader))
                            && Integer.toString(source.partition()).equals(Replays.header(record, offsetHeader.replace("offset", "partition")))) {
                        return record;
                    }
                    seen.add(record.offset() + ": " + java.util.Arrays.stream(record.headers().toArray()).map(Header::key).toList());
                }
            }
            throw new AssertionError("no dead letter of " + source + " in " + dlqTopic + " within 60 s; it holds " + seen);
        }
    }

    /** Every record of the topic, from the start of each partition to its end. */
    static List<ConsumerRecord<byte[], byte[]>> all(KafkaBroker broker, String topic) {
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(broker)) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(10)).stream()
                    .map(info -> new TopicPartition(topic, info.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (partitions.stream().anyMatch(partition -> consumer.position(partition) < end.get(partition)) && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
            return records;
        }
    }

    /** Every value of the topic, as UTF-8 text. */
    static List<String> values(KafkaBroker broker, String topic) {
        return all(broker, topic).stream().map(record -> record.value() == null ? null : new String(record.value(), StandardCharsets.UTF_8))
                .toList();
    }

    private static KafkaConsumer<byte[], byte[]> consumer(KafkaBroker broker) {
        return new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false), new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /** A copy of the writer's record, its headers edited, sent to the same DLQ partition with the same timestamp. */
    static RecordMetadata sendCopy(KafkaProducer<byte[], byte[]> producer, ConsumerRecord<byte[], byte[]> written,
                                   UnaryOperator<RecordHeaders> edit) throws Exception {
        RecordHeaders headers = new RecordHeaders();
        for (Header header : written.headers()) {
            headers.add(header.key(), header.value());
        }
        return producer.send(new ProducerRecord<>(written.topic(), written.partition(), written.timestamp(), written.key(), written.value(),
                edit.apply(headers))).get(30, TimeUnit.SECONDS);
    }

    /** Headers with every occurrence of {@code name} replaced by one {@code value} (null: removed). */
    static RecordHeaders replace(RecordHeaders headers, String name, byte[] value) {
        headers.remove(name);
        if (value != null) {
            headers.add(name, value);
        }
        return headers;
    }

    /** The quarantine reason stored for a DLQ record, or null while it is not (yet) quarantined. */
    static String quarantineReason(ConfigurableApplicationContext app, RecordMetadata dlqRecord) {
        List<String> reasons = app.getBean(JdbcTemplate.class).queryForList(
                "SELECT reason FROM dlq_quarantine WHERE dlq_topic = ? AND dlq_partition = ? AND dlq_offset = ?", String.class,
                dlqRecord.topic(), dlqRecord.partition(), dlqRecord.offset());
        return reasons.isEmpty() ? null : reasons.get(0);
    }
}

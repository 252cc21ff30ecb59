package io.dlqdesk.app;

import io.dlqdesk.testsupport.KafkaBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The consumer of a source topic in the group that failed, as users write them: it remembers the
 * eventIds it applied, so a replay delivered twice (publishing is at least once) is applied once. It
 * commits after every poll, which is what rollback readiness reads as "consumed".
 */
final class Downstream implements AutoCloseable {

    private final Map<String, Integer> deliveries = new ConcurrentHashMap<>();
    private final Map<String, Integer> applied = new ConcurrentHashMap<>();
    private final Set<String> remembered = ConcurrentHashMap.newKeySet();
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Thread thread;
    private volatile boolean running = true;

    private Downstream(KafkaConsumer<byte[], byte[]> consumer) {
        this.consumer = consumer;
        this.thread = new Thread(this::run, "downstream-consumer");
        thread.setDaemon(true);
    }

    /** The originals failed and were dead-lettered: the group's position is already past them. */
    static Downstream startAtTheEnd(KafkaBroker broker, String topic, String group) throws Exception {
        try (Admin admin = broker.admin()) {
            int partitions = admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic).partitions().size();
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            for (int partition = 0; partition < partitions; partition++) {
                latest.put(new TopicPartition(topic, partition), OffsetSpec.latest());
            }
            Map<TopicPartition, OffsetAndMetadata> ends = new HashMap<>();
            admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS).forEach((partition, end) -> ends.put(partition, new OffsetAndMetadata(end.offset())));
            admin.alterConsumerGroupOffsets(group, ends).all().get(30, TimeUnit.SECONDS);
        }
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, group,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"), new ByteArrayDeserializer(), new ByteArrayDeserializer());
        consumer.subscribe(List.of(topic));
        Downstream downstream = new Downstream(consumer);
        downstream.thread.start();
        return downstream;
    }

    private void run() {
        try {
            while (running) {
                try {
                    for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                        Header header = record.headers().lastHeader("eventId");
                        String eventId = header == null ? "(none)@" + record.partition() + "/" + record.offset() : new String(header.value(), StandardCharsets.UTF_8);
                        deliveries.merge(eventId, 1, Integer::sum);
                        if (remembered.add(eventId)) {
                            applied.merge(eventId, 1, Integer::sum);
                        }
                    }
                    consumer.commitSync(Duration.ofSeconds(10));
                } catch (WakeupException e) {
                    return;
                } catch (RuntimeException e) { // a broker restart: poll again, the uncommitted records come again
                    if (!running) {
                        return;
                    }
                }
            }
        } finally {
            consumer.close(Duration.ofSeconds(5));
        }
    }

    /** eventId -> times delivered (replays delivered twice count twice). */
    Map<String, Integer> deliveries() {
        return deliveries;
    }

    /** eventId -> times applied. */
    Map<String, Integer> applied() {
        return applied;
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        consumer.wakeup();
        thread.join(TimeUnit.SECONDS.toMillis(30));
    }
}

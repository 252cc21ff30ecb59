package io.dlqdesk.bench;

import io.dlqdesk.testsupport.KafkaBroker;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.springframework.jdbc.core.JdbcTemplate;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;

/**
 * The ingest baseline, the design the DLQ write-up started from: a plain kafka-clients consumer, 4
 * workers, one {@code dead_letter_records} row per record in its own transaction, offsets committed
 * as the contiguous prefix of finished records per partition. No event store, no read model.
 */
final class BaselineLedger implements AutoCloseable {

    private static final int WORKERS = 4;
    private static final int MAX_IN_FLIGHT = 1_000;

    private final JdbcTemplate jdbc;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final ExecutorService workers = Executors.newFixedThreadPool(WORKERS, work -> new Thread(work, "baseline-ledger-worker"));
    private final Semaphore inFlight = new Semaphore(MAX_IN_FLIGHT);
    private final Map<TopicPartition, Prefix> prefixes = new HashMap<>();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicLong stored = new AtomicLong();
    private final Thread loop;

    static void createTable(JdbcTemplate jdbc) {
        jdbc.execute("CREATE TABLE IF NOT EXISTS dead_letter_records (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, "
                + "original_topic VARCHAR(249) NOT NULL, original_partition INT NOT NULL, original_offset BIGINT NOT NULL, "
                + "consumer_group VARCHAR(255) NOT NULL, dlq_topic VARCHAR(249) NOT NULL, dlq_partition INT NOT NULL, dlq_offset BIGINT NOT NULL, "
                + "record_key VARBINARY(1024), record_value MEDIUMBLOB, exception_message VARCHAR(2000), received_at DATETIME(6) NOT NULL, "
                + "UNIQUE KEY ux_failure (original_topic, original_partition, original_offset, consumer_group)) ENGINE = InnoDB");
    }

    BaselineLedger(KafkaBroker broker, DataSource dataSource, String topic, String group) {
        this.jdbc = new JdbcTemplate(dataSource);
        this.consumer = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, group, ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest", ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 500),
                new ByteArrayDeserializer(), new ByteArrayDeserializer());
        consumer.subscribe(List.of(topic));
        loop = new Thread(this::run, "baseline-ledger");
        loop.start();
    }

    /** Records whose row is committed. */
    long stored() {
        return stored.get();
    }

    private void run() {
        try {
            while (running.get()) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(100))) {
                    inFlight.acquire();
                    TopicPartition partition = new TopicPartition(record.topic(), record.partition());
                    Prefix prefix = prefixes.computeIfAbsent(partition, p -> new Prefix(record.offset()));
                    workers.execute(() -> {
                        try {
                            store(record);
                            prefix.done(record.offset());
                        } finally {
                            inFlight.release();
                        }
                    });
                }
                Map<TopicPartition, OffsetAndMetadata> commits = new HashMap<>();
                prefixes.forEach((partition, prefix) -> prefix.advance().ifPresent(next -> commits.put(partition, new OffsetAndMetadata(next))));
                if (!commits.isEmpty()) {
                    consumer.commitSync(commits);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            consumer.close();
        }
    }

    private void store(ConsumerRecord<byte[], byte[]> record) {
        // autocommit: each row is its own transaction
        jdbc.update("INSERT IGNORE INTO dead_letter_records (original_topic, original_partition, original_offset, consumer_group, dlq_topic, "
                        + "dlq_partition, dlq_offset, record_key, record_value, exception_message, received_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, UTC_TIMESTAMP(6))",
                text(record, "kafka_dlt-original-topic"), ByteBuffer.wrap(bytes(record, "kafka_dlt-original-partition")).getInt(),
                ByteBuffer.wrap(bytes(record, "kafka_dlt-original-offset")).getLong(), text(record, "kafka_dlt-original-consumer-group"),
                record.topic(), record.partition(), record.offset(), record.key(), record.value(), text(record, "kafka_dlt-exception-message"));
        stored.incrementAndGet();
    }

    private static byte[] bytes(ConsumerRecord<byte[], byte[]> record, String name) {
        Header header = record.headers().lastHeader(name);
        if (header == null) {
            throw new IllegalArgumentException("no " + name + " on " + record.topic() + "/" + record.partition() + "/" + record.offset());
        }
        return header.value();
    }

    private static String text(ConsumerRecord<byte[], byte[]> record, String name) {
        return new String(bytes(record, name), StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws InterruptedException {
        running.set(false);
        loop.join();
        workers.shutdown();
        workers.awaitTermination(30, TimeUnit.SECONDS);
    }

    /** Finished offsets of one partition; the committable position is the end of the contiguous run from the first. */
    private static final class Prefix {
        private final TreeSet<Long> done = new TreeSet<>();
        private long next;
        private long committed;

        Prefix(long first) {
            next = first;
            committed = first;
        }

        synchronized void done(long offset) {
            done.add(offset);
        }

        synchronized java.util.Optional<Long> advance() {
            while (done.remove(next)) {
                next++;
            }
            if (next == committed) {
                return java.util.Optional.empty();
            }
            committed = next;
            return java.util.Optional.of(next);
        }
    }
}

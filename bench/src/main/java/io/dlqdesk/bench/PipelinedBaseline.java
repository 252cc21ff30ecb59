package io.dlqdesk.bench;

import io.dlqdesk.domain.record.RecordLocation;
import io.dlqdesk.testsupport.KafkaBroker;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The replay's second baseline, a raw producer tuned for throughput: it reads the same source records in one pass over
 * their partitions (a seek to each partition's first, then fetches of many) and sends them in the same order without
 * waiting for each acknowledgement; callbacks count the acknowledgements, and all are awaited after a flush at the end.
 * Durability as the product's replay publisher has it (acks=all, idempotent, no compression); linger and batch size as a
 * producer tuned for throughput sets them.
 */
final class PipelinedBaseline {

    static final int LINGER_MS = 10;
    static final int BATCH_SIZE = 128 * 1024;
    private static final int MAX_POLL_RECORDS = 500;
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private PipelinedBaseline() {
    }

    /** The producer settings, for latest.json: a ratio against this baseline means nothing without them. */
    static Map<String, Object> settings() {
        return BenchReport.ordered("acks", "all", "idempotence", true, "compression", "none", "linger_ms", LINGER_MS,
                "batch_size_bytes", BATCH_SIZE);
    }

    /** Reads {@code sources} and sends each again to its topic and partition; returns once the broker acknowledged all. */
    static void resend(KafkaBroker broker, List<RecordMetadata> sources) throws Exception {
        Map<TopicPartition, Long> lastWanted = new HashMap<>();
        for (RecordMetadata source : sources) {
            lastWanted.merge(new TopicPartition(source.topic(), source.partition()), source.offset(), Math::max);
        }
        CountDownLatch completed = new CountDownLatch(sources.size());
        AtomicReference<Exception> failure = new AtomicReference<>();
        Callback counted = (metadata, error) -> {
            if (error != null) {
                failure.compareAndSet(null, error);
            }
            completed.countDown();
        };
        try (KafkaConsumer<byte[], byte[]> consumer = Records.reader(broker, MAX_POLL_RECORDS);
             KafkaProducer<byte[], byte[]> producer = producer(broker)) {
            startAtFirstWanted(consumer, sources);
            Map<RecordLocation, ConsumerRecord<byte[], byte[]>> arrived = new HashMap<>();
            int next = 0;
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (next < sources.size()) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(next + " of " + sources.size() + " source records read after " + TIMEOUT);
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(100))) {
                    TopicPartition partition = new TopicPartition(record.topic(), record.partition());
                    if (record.offset() <= lastWanted.get(partition)) {
                        arrived.put(new RecordLocation(record.topic(), record.partition(), record.offset()), record);
                    }
                    if (record.offset() >= lastWanted.get(partition)) { // past it are the replays of earlier phases: not fetched
                        consumer.pause(List.of(partition));
                    }
                }
                // in the sources' order: a record waits here only until those before it on other partitions have arrived
                ConsumerRecord<byte[], byte[]> record;
                while (next < sources.size() && (record = arrived.remove(location(sources.get(next)))) != null) {
                    producer.send(new ProducerRecord<>(record.topic(), record.partition(), record.timestamp(), record.key(), record.value(),
                            record.headers()), counted);
                    next++;
                }
            }
            producer.flush();
            if (!completed.await(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                throw new IllegalStateException(completed.getCount() + " of " + sources.size() + " sends unacknowledged after " + TIMEOUT);
            }
        }
        if (failure.get() != null) {
            throw new IllegalStateException("a send of the pipelined baseline failed", failure.get());
        }
    }

    private static void startAtFirstWanted(KafkaConsumer<byte[], byte[]> consumer, List<RecordMetadata> sources) {
        Map<TopicPartition, Long> firstWanted = new HashMap<>();
        for (RecordMetadata source : sources) {
            firstWanted.merge(new TopicPartition(source.topic(), source.partition()), source.offset(), Math::min);
        }
        consumer.assign(firstWanted.keySet());
        firstWanted.forEach(consumer::seek);
    }

    private static RecordLocation location(RecordMetadata source) {
        return new RecordLocation(source.topic(), source.partition(), source.offset());
    }

    private static KafkaProducer<byte[], byte[]> producer(KafkaBroker broker) {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(), ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true, ProducerConfig.COMPRESSION_TYPE_CONFIG, "none",
                ProducerConfig.LINGER_MS_CONFIG, LINGER_MS, ProducerConfig.BATCH_SIZE_CONFIG, BATCH_SIZE),
                new ByteArraySerializer(), new ByteArraySerializer());
    }
}

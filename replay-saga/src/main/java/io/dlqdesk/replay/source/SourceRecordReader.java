package io.dlqdesk.replay.source;

import io.dlqdesk.domain.record.RecordLocation;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Reads the one record at an exact location of a source topic: assigns, seeks, never commits,
 * {@code byte[]} throughout, within a bound. Only committed records are read (an aborted
 * transaction's record was never delivered to anyone, so it is not one to replay).
 */
public class SourceRecordReader implements AutoCloseable {

    static final Duration POLL = Duration.ofMillis(200);
    /** Consumers kept between reads; the console reads no more records at once than this, so a crowd of viewers reuses them. */
    public static final int KEPT_CONSUMERS = 4;

    private final Map<String, Object> consumerConfig;
    private final String clientId;
    private final AtomicLong consumers = new AtomicLong();
    /** Creating a consumer costs more than the read itself (metadata, connection): a few are kept between reads. */
    private final BlockingQueue<KafkaConsumer<byte[], byte[]>> idle = new ArrayBlockingQueue<>(KEPT_CONSUMERS);
    private final Duration timeout;

    public SourceRecordReader(String bootstrapServers, String clientId, Duration timeout) {
        Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        // asking about a topic must never create it
        config.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        // a batch read takes many records per poll; a single read takes the first one and drops the rest
        config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 500);
        // a poll that hands out every buffered record sends the next fetch at once; at the log end the broker holds
        // it up to fetch.max.wait.ms, and it answers one request per connection in order, so the next read's
        // offset lookups on this (reused) consumer would queue behind it: 500 ms by default, per read
        config.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 10);
        config.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        config.put(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) Math.max(1_000, timeout.toMillis()));
        this.consumerConfig = Map.copyOf(config);
        this.clientId = clientId;
        this.timeout = timeout;
    }

    public SourceRead read(RecordLocation location) {
        SourceRead read = readWith(borrow(), location);
        // a reused consumer's metadata may predate a new topic or partition: "not there" is confirmed by a new consumer
        if (missingByMetadata(read)) {
            read = readWith(create(), location);
        }
        return read;
    }

    /**
     * Reads every location with one consumer, each as {@link #read} would: one metadata lookup per topic, one
     * call each for the log starts and ends of all partitions, then the records in as few polls as their spread
     * allows. The timeout bounds the whole batch.
     */
    public Map<RecordLocation, SourceRead> readAll(Collection<RecordLocation> locations) {
        Map<RecordLocation, SourceRead> reads = readAllWith(borrow(), locations);
        List<RecordLocation> unconfirmed = reads.values().stream().filter(SourceRecordReader::missingByMetadata)
                .map(SourceRead::requested).toList();
        if (!unconfirmed.isEmpty()) {
            reads.putAll(readAllWith(create(), unconfirmed));
        }
        return reads;
    }

    private static boolean missingByMetadata(SourceRead read) {
        return read instanceof SourceRead.NotThere notThere
                && (notThere.reason() == SourceRead.Reason.TOPIC_MISSING || notThere.reason() == SourceRead.Reason.PARTITION_MISSING);
    }

    private Map<RecordLocation, SourceRead> readAllWith(KafkaConsumer<byte[], byte[]> consumer, Collection<RecordLocation> locations) {
        boolean reusable = false;
        try {
            Map<RecordLocation, SourceRead> reads = new BatchRead(consumer, locations, timeout).run();
            reusable = reads.values().stream().noneMatch(read -> read instanceof SourceRead.Unavailable);
            return reads;
        } finally {
            release(consumer, reusable);
        }
    }

    /** Reads with {@code consumer}, then keeps it for the next read, or closes it if the broker could not be asked. */
    private SourceRead readWith(KafkaConsumer<byte[], byte[]> consumer, RecordLocation location) {
        boolean reusable = false;
        try {
            SourceRead read = readFrom(consumer, location);
            reusable = !(read instanceof SourceRead.Unavailable);
            return read;
        } finally {
            release(consumer, reusable);
        }
    }

    private void release(KafkaConsumer<byte[], byte[]> consumer, boolean reusable) {
        boolean kept = false;
        if (reusable) {
            consumer.assign(List.of());
            kept = idle.offer(consumer);
        }
        if (!kept) {
            consumer.close(Duration.ZERO);
        }
    }

    private KafkaConsumer<byte[], byte[]> borrow() {
        KafkaConsumer<byte[], byte[]> consumer = idle.poll();
        return consumer != null ? consumer : create();
    }

    private KafkaConsumer<byte[], byte[]> create() {
        Map<String, Object> config = new HashMap<>(consumerConfig);
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId + "-" + consumers.incrementAndGet()); // consumers side by side: distinct metrics names
        return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /** Closes the consumers kept for reuse. */
    @Override
    public void close() {
        KafkaConsumer<byte[], byte[]> consumer;
        while ((consumer = idle.poll()) != null) {
            consumer.close(Duration.ZERO);
        }
    }

    private SourceRead readFrom(KafkaConsumer<byte[], byte[]> consumer, RecordLocation location) {
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            List<PartitionInfo> partitions = consumer.partitionsFor(location.topic(), remaining(deadline));
            if (partitions == null || partitions.isEmpty()) {
                return new SourceRead.NotThere(location, SourceRead.Reason.TOPIC_MISSING, "topic " + location.topic() + " does not exist");
            }
            if (partitions.stream().noneMatch(partition -> partition.partition() == location.partition())) {
                return new SourceRead.NotThere(location, SourceRead.Reason.PARTITION_MISSING,
                        "topic " + location.topic() + " has " + partitions.size() + " partitions, no partition " + location.partition());
            }
            TopicPartition partition = new TopicPartition(location.topic(), location.partition());
            long logStart = consumer.beginningOffsets(Set.of(partition), remaining(deadline)).get(partition);
            // read_committed: the end is the last stable offset
            long logEnd = consumer.endOffsets(Set.of(partition), remaining(deadline)).get(partition);
            if (location.offset() < logStart) {
                return new SourceRead.NotThere(location, SourceRead.Reason.BELOW_LOG_START,
                        "offset " + location.offset() + " is below the log start " + logStart + " (deleted by retention)");
            }
            if (location.offset() >= logEnd) {
                return new SourceRead.NotThere(location, SourceRead.Reason.AT_OR_AFTER_LOG_END,
                        "offset " + location.offset() + " is at or after the log end " + logEnd);
            }
            consumer.assign(List.of(partition));
            consumer.seek(partition, location.offset());
            while (System.nanoTime() < deadline) {
                List<ConsumerRecord<byte[], byte[]>> records = consumer.poll(POLL).records(partition);
                if (!records.isEmpty()) {
                    return new SourceRead.Found(location, records.get(0));
                }
                if (consumer.position(partition, remaining(deadline)) >= logEnd) {
                    return new SourceRead.NothingReadable(location, "no committed record from offset " + location.offset()
                            + " to the log end " + logEnd);
                }
            }
            return new SourceRead.Unavailable(location, "no record came back within " + timeout);
        } catch (KafkaException e) { // includes timeouts: the broker could not be asked
            return new SourceRead.Unavailable(location, e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    static Duration remaining(long deadline) {
        return Duration.ofNanos(Math.max(1, deadline - System.nanoTime()));
    }
}

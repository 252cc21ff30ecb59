package io.dlqdesk.replay.source;

import io.dlqdesk.domain.record.RecordLocation;
import io.dlqdesk.domain.replay.KeyFreshness;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;

/**
 * The stale-key check: has the incident's target group already processed a later record with the same key? It has when a
 * record with the key lies after the original on the source partition and before the group's committed offset there
 * (records are routed to partitions by key, so a newer value of the key lands on the same partition). A later record whose
 * value is byte-identical to the original's (the desk's own replay of it, or the same data sent again) is no newer state
 * and does not count; no header decides that, as anyone who writes to the topic could set one. Reads at most {@code maxRecords} records
 * within {@code timeout}; past either bound the answer is UNKNOWN, never FRESH. Only committed records are read, and the
 * target group's offsets are read through the admin API: the check never joins or commits for any group.
 */
public class KeyFreshnessReader implements AutoCloseable {

    /** Which topics are checked, and the bounds of one check. */
    public record Settings(Pattern topics, long maxRecords, Duration timeout) {
    }

    private static final Duration POLL = Duration.ofMillis(200);

    private final Settings settings;
    private final Map<String, Object> consumerConfig;
    private final Admin admin;

    public KeyFreshnessReader(Map<String, Object> clientConfig, Settings settings) {
        this.settings = settings;
        int millis = Math.toIntExact(settings.timeout().toMillis());
        Map<String, Object> consumer = new HashMap<>(clientConfig);
        consumer.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        consumer.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        consumer.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        consumer.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 2_000);
        consumer.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, millis);
        consumer.put(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, Math.max(1_000, millis));
        this.consumerConfig = Map.copyOf(consumer);
        Map<String, Object> adminConfig = new HashMap<>(clientConfig);
        adminConfig.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, millis);
        adminConfig.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, millis);
        this.admin = Admin.create(adminConfig);
    }

    /**
     * @param original    where the incident's record is
     * @param key         its key bytes as read back (null: no key, nothing to compare)
     * @param value       its value bytes as read back
     * @param targetGroup the group that failed on it and would process the replay
     */
    public KeyFreshness check(RecordLocation original, byte[] key, byte[] value, String targetGroup) {
        if (!settings.topics().matcher(original.topic()).matches()) {
            return KeyFreshness.notChecked("topic " + original.topic() + " is not in dlqdesk.replay.stale-key-check.topics");
        }
        if (key == null) {
            return KeyFreshness.notChecked("the record has no key");
        }
        if (targetGroup == null || targetGroup.isBlank()) {
            return KeyFreshness.unknown("the failing group is not known");
        }
        long deadline = System.nanoTime() + settings.timeout().toNanos();
        TopicPartition partition = new TopicPartition(original.topic(), original.partition());
        Long committed;
        try {
            committed = committedOffset(targetGroup, partition);
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            return KeyFreshness.unknown("the committed offset of " + targetGroup + " on " + partition + " could not be read within "
                    + settings.timeout() + ": " + (e.getCause() == null ? e : e.getCause()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return KeyFreshness.unknown("interrupted");
        }
        long from = original.offset() + 1;
        if (committed == null || committed <= from) {
            return KeyFreshness.fresh(committed == null ? targetGroup + " has no committed offset on " + partition
                    : targetGroup + " has committed " + committed + " on " + partition + ": no later record processed");
        }
        if (committed - from > settings.maxRecords()) {
            return KeyFreshness.unknown((committed - from) + " records lie between the original and the committed offset " + committed
                    + ", more than dlqdesk.replay.stale-key-check.max-records (" + settings.maxRecords() + ")");
        }
        return scan(partition, from, committed, key, value, deadline);
    }

    private Long committedOffset(String group, TopicPartition partition) throws InterruptedException, ExecutionException, TimeoutException {
        Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(Map.of(group,
                        new ListConsumerGroupOffsetsSpec().topicPartitions(List.of(partition))))
                .partitionsToOffsetAndMetadata(group).get(settings.timeout().toMillis(), TimeUnit.MILLISECONDS);
        OffsetAndMetadata offset = offsets.get(partition);
        return offset == null ? null : offset.offset();
    }

    /** Reads [from, until) for a record with the key and another value. */
    private KeyFreshness scan(TopicPartition partition, long from, long until, byte[] key, byte[] value, long deadline) {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerConfig, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.assign(List.of(partition));
            consumer.seek(partition, from);
            long read = 0;
            while (System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
                    if (record.offset() >= until) {
                        return KeyFreshness.fresh("no later record with the key in " + read + " records up to the committed offset " + until);
                    }
                    read++;
                    if (Arrays.equals(record.key(), key) && !Arrays.equals(record.value(), value)) {
                        return KeyFreshness.stale(record.offset(), "offset " + record.offset() + " holds a later record with the same key, "
                                + "and the group has committed " + until);
                    }
                }
                // aborted records and commit markers below the committed offset are never returned
                if (consumer.position(partition) >= until) {
                    return KeyFreshness.fresh("no later record with the key in " + read + " records up to the committed offset " + until);
                }
            }
            return KeyFreshness.unknown("not read up to the committed offset " + until + " within dlqdesk.replay.stale-key-check.timeout ("
                    + settings.timeout() + ")");
        } catch (RuntimeException e) {
            return KeyFreshness.unknown("reading " + partition + " failed: " + e);
        }
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(5));
    }
}

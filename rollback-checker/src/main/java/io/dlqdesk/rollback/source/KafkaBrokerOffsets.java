package io.dlqdesk.rollback.source;

import io.dlqdesk.rollback.check.BrokerOffsets;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/** The broker side of the check, over one Admin client per check; every request bounded by the timeout. */
public final class KafkaBrokerOffsets implements BrokerOffsets {

    private final String bootstrapServers;
    private final String clientId;
    private final Duration timeout;
    private final Admin admin;

    public KafkaBrokerOffsets(String bootstrapServers, String clientId, Duration timeout) {
        this.bootstrapServers = bootstrapServers;
        this.clientId = clientId;
        this.timeout = timeout;
        int millis = Math.toIntExact(timeout.toMillis());
        this.admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                AdminClientConfig.CLIENT_ID_CONFIG, clientId,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, millis,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, millis));
    }

    @Override
    public Map<TopicPartition, Long> endOffsets(Pattern topics) {
        List<String> matching = get(admin.listTopics(new ListTopicsOptions().listInternal(false)).names()).stream()
                .filter(name -> topics.matcher(name).matches()).sorted().toList();
        if (matching.isEmpty()) {
            return Map.of();
        }
        Map<String, TopicDescription> descriptions = get(admin.describeTopics(matching).allTopicNames());
        Map<TopicPartition, OffsetSpec> request = descriptions.values().stream()
                .flatMap(description -> description.partitions().stream().map(partition -> new TopicPartition(description.name(), partition.partition())))
                .collect(Collectors.toMap(Function.identity(), partition -> OffsetSpec.latest()));
        return offsets(request, IsolationLevel.READ_UNCOMMITTED);
    }

    @Override
    public Map<TopicPartition, Long> committedOffsets(String group) {
        Map<TopicPartition, Long> committed = new HashMap<>();
        get(admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata()).forEach((partition, offset) -> {
            if (offset != null) {
                committed.put(partition, offset.offset());
            }
        });
        return committed;
    }

    @Override
    public boolean visibleRecordsBetween(TopicPartition partition, long from, long to) {
        // an open transaction below `to` may still commit records there: not read yet, whatever it holds
        long stable = offsets(Map.of(partition, OffsetSpec.latest()), IsolationLevel.READ_COMMITTED).get(partition);
        if (stable < to) {
            return true;
        }
        Map<String, Object> config = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.CLIENT_ID_CONFIG, clientId + "-probe",
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false,
                ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, Math.toIntExact(timeout.toMillis()),
                ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, Math.toIntExact(timeout.toMillis()));
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.assign(List.of(partition));
            consumer.seek(partition, from);
            long deadline = System.nanoTime() + timeout.toNanos();
            while (consumer.position(partition) < to) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(100))) {
                    if (record.offset() < to) {
                        return true;
                    }
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("reading " + partition + " from " + from + " to " + to + " took longer than " + timeout);
                }
            }
            return false;
        }
    }

    @Override
    public void close() {
        admin.close(timeout);
    }

    private Map<TopicPartition, Long> offsets(Map<TopicPartition, OffsetSpec> request, IsolationLevel isolation) {
        Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> result =
                get(admin.listOffsets(request, new ListOffsetsOptions(isolation)).all());
        Map<TopicPartition, Long> offsets = new HashMap<>();
        result.forEach((partition, info) -> offsets.put(partition, info.offset()));
        return offsets;
    }

    private <T> T get(KafkaFuture<T> future) {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while asking the brokers", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("the brokers answered with an error: " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("no answer from the brokers at " + bootstrapServers + " within " + timeout, e);
        }
    }
}

package io.dlqdesk.replay.source;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

/**
 * Reads a replay target partition's end offset (its high-water mark, read_uncommitted) when an attempt
 * is decided without a known location: a replay of it that went out lies below that offset. Empty when
 * the brokers do not answer within the bound; the rollback check then fails closed for that attempt.
 */
public class PartitionEndReader implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(PartitionEndReader.class);

    private final Map<String, Object> adminConfig;
    private final Duration timeout;
    private Admin admin;

    public PartitionEndReader(String bootstrapServers, String clientId, Duration timeout) {
        int millis = Math.toIntExact(timeout.toMillis());
        this.adminConfig = Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers, AdminClientConfig.CLIENT_ID_CONFIG, clientId,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, millis, AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, millis);
        this.timeout = timeout;
    }

    /** Retention read less than this long ago is answered again without asking the broker (a bulk job asks per incident). */
    private static final Duration RETENTION_KEPT = Duration.ofMinutes(1);

    private record Retention(Long millis, long readAtNanos) {
    }

    private final Map<String, Retention> retentions = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * The topic's effective {@code retention.ms} (-1: none), or null when it could not be read within the bound (the
     * broker refused DescribeConfigs, say). Read at most once a minute per topic.
     */
    public Long retentionMs(String topic) {
        Retention kept = retentions.get(topic);
        if (kept != null && System.nanoTime() - kept.readAtNanos() < RETENTION_KEPT.toNanos()) {
            return kept.millis();
        }
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        try {
            ConfigEntry entry = admin().describeConfigs(List.of(resource)).values().get(resource)
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS).get(TopicConfig.RETENTION_MS_CONFIG);
            Long millis = entry == null || entry.value() == null ? null : Long.valueOf(entry.value());
            if (retentions.size() > 10_000) {
                retentions.clear();
            }
            retentions.put(topic, new Retention(millis, System.nanoTime()));
            return millis;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            log.warn("retention of {} not read: interrupted", topic);
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
            log.warn("retention of {} not read within {}: {}", topic, timeout, cause.toString());
        }
        return null;
    }

    /** The partition's high-water mark now, or empty when it could not be read within the bound. */
    public OptionalLong endOffset(String topic, int partition) {
        TopicPartition target = new TopicPartition(topic, partition);
        try {
            long end = admin().listOffsets(Map.of(target, OffsetSpec.latest())).partitionResult(target)
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS).offset();
            return end < 0 ? OptionalLong.empty() : OptionalLong.of(end);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            log.warn("end offset of {} not read: interrupted", target);
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
            log.warn("end offset of {} not read within {}: {}", target, timeout, cause.toString());
        }
        return OptionalLong.empty();
    }

    /**
     * The high-water marks of several partitions in one request; a partition whose end could not be read within
     * the bound is missing from the answer.
     */
    public Map<TopicPartition, Long> endOffsets(Set<TopicPartition> partitions) {
        Map<TopicPartition, Long> ends = new HashMap<>();
        if (partitions.isEmpty()) {
            return ends;
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        ListOffsetsResult result;
        try {
            result = admin().listOffsets(partitions.stream().collect(Collectors.toMap(partition -> partition, partition -> OffsetSpec.latest())));
        } catch (RuntimeException e) {
            log.warn("end offsets of {} not read: {}", partitions, e.toString());
            return ends;
        }
        for (TopicPartition partition : partitions) {
            try {
                long end = result.partitionResult(partition).get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS).offset();
                if (end >= 0) {
                    ends.put(partition, end);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                log.warn("end offset of {} not read: interrupted", partition);
                return ends;
            } catch (ExecutionException | TimeoutException | RuntimeException e) {
                Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
                log.warn("end offset of {} not read within {}: {}", partition, timeout, cause.toString());
            }
        }
        return ends;
    }

    private synchronized Admin admin() {
        if (admin == null) {
            admin = Admin.create(adminConfig);
        }
        return admin;
    }

    @Override
    public synchronized void close() {
        if (admin != null) {
            admin.close(Duration.ZERO);
            admin = null;
        }
    }
}

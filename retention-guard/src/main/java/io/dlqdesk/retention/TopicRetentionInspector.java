package io.dlqdesk.retention;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.DescribeConfigsOptions;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/** Reads source topics' effective configuration from the brokers (AdminClient) and flags the unsafe ones. */
public class TopicRetentionInspector {

    static final List<String> KEYS = List.of("retention.ms", "retention.bytes", "segment.bytes", "segment.ms", "cleanup.policy",
            "message.timestamp.type");

    private final Supplier<Admin> admins;
    private final Duration timeout;

    public TopicRetentionInspector(Supplier<Admin> admins, Duration timeout) {
        this.admins = admins;
        this.timeout = timeout;
    }

    /**
     * Every topic in one DescribeConfigs call, answered within one {@code timeout} however many topics there are: a topic
     * without an answer by then is {@link RetentionFlag#UNREADABLE}. (One call a topic, each with its own timeout, took
     * topics x timeout on a slow broker.)
     */
    public List<TopicRetention> inspect(Collection<String> topics, Duration replayWindow) {
        if (topics.isEmpty()) {
            return List.of();
        }
        Map<String, ConfigResource> resources = new LinkedHashMap<>();
        topics.forEach(topic -> resources.put(topic, new ConfigResource(ConfigResource.Type.TOPIC, topic)));
        Admin admin = admins.get();
        try {
            Map<ConfigResource, KafkaFuture<Config>> answers = admin.describeConfigs(resources.values(),
                    new DescribeConfigsOptions().timeoutMs((int) Math.min(Integer.MAX_VALUE, timeout.toMillis()))).values();
            String waited = awaitAll(answers.values());
            List<TopicRetention> report = new ArrayList<>();
            resources.forEach((topic, resource) -> report.add(inspect(topic, answers.get(resource), waited, replayWindow)));
            return report;
        } finally {
            admin.close(Duration.ZERO); // what is still pending is past the deadline: abandoned, not waited for
        }
    }

    /** Null when every answer came within the timeout, else why the rest are missing. */
    private String awaitAll(Collection<KafkaFuture<Config>> answers) {
        try {
            KafkaFuture.allOf(answers.toArray(KafkaFuture[]::new)).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return null;
        } catch (ExecutionException e) {
            return null; // a topic's own failure: read from its answer
        } catch (TimeoutException e) {
            return "no answer within " + timeout;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    private TopicRetention inspect(String topic, KafkaFuture<Config> answer, String waited, Duration replayWindow) {
        if (answer == null || !answer.isDone()) {
            return new TopicRetention(topic, Map.of(), List.of(RetentionFlag.UNREADABLE), waited == null ? "no answer" : waited);
        }
        Config config;
        try {
            config = answer.get();
        } catch (ExecutionException e) {
            String reason = e.getCause() instanceof UnknownTopicOrPartitionException ? "topic does not exist" : String.valueOf(e.getCause());
            return new TopicRetention(topic, Map.of(), List.of(RetentionFlag.UNREADABLE), reason);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new TopicRetention(topic, Map.of(), List.of(RetentionFlag.UNREADABLE), "interrupted");
        }
        Map<String, TopicRetention.ConfigValue> values = new LinkedHashMap<>();
        for (String key : KEYS) {
            ConfigEntry entry = config.get(key);
            if (entry != null) {
                values.put(key, new TopicRetention.ConfigValue(entry.value(), source(entry.source())));
            }
        }
        return new TopicRetention(topic, values, flags(values, replayWindow), null);
    }

    static List<RetentionFlag> flags(Map<String, TopicRetention.ConfigValue> values, Duration replayWindow) {
        List<RetentionFlag> flags = new ArrayList<>();
        long retentionMs = number(values, "retention.ms", -1);
        if (retentionMs >= 0 && retentionMs < replayWindow.toMillis()) {
            flags.add(RetentionFlag.RETENTION_SHORTER_THAN_REPLAY_WINDOW);
        }
        long retentionBytes = number(values, "retention.bytes", -1);
        if (retentionBytes >= 0 && number(values, "segment.bytes", Long.MAX_VALUE) >= retentionBytes) {
            flags.add(RetentionFlag.SIZE_RETENTION_INEFFECTIVE);
        }
        if ("LogAppendTime".equals(text(values, "message.timestamp.type"))) {
            flags.add(RetentionFlag.LOG_APPEND_TIME);
        }
        if (text(values, "cleanup.policy").toLowerCase(Locale.ROOT).contains("compact")) {
            flags.add(RetentionFlag.COMPACTED);
        }
        return flags;
    }

    private static long number(Map<String, TopicRetention.ConfigValue> values, String key, long absent) {
        String text = text(values, key);
        try {
            return text.isEmpty() ? absent : Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            return absent;
        }
    }

    private static String text(Map<String, TopicRetention.ConfigValue> values, String key) {
        TopicRetention.ConfigValue value = values.get(key);
        return value == null || value.value() == null ? "" : value.value();
    }

    private static String source(ConfigEntry.ConfigSource source) {
        return switch (source) {
            case DEFAULT_CONFIG -> "default";
            case STATIC_BROKER_CONFIG -> "static-broker";
            case DYNAMIC_TOPIC_CONFIG -> "dynamic-topic";
            case DYNAMIC_BROKER_CONFIG -> "dynamic-broker";
            case DYNAMIC_DEFAULT_BROKER_CONFIG -> "dynamic-default-broker";
            default -> source.name().toLowerCase(Locale.ROOT).replace('_', '-');
        };
    }
}

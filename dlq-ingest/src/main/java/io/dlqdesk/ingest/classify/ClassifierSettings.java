package io.dlqdesk.ingest.classify;

import io.dlqdesk.record.DltHeaderReader;
import io.dlqdesk.record.EventIdSource;

import java.util.Map;
import java.util.Set;

/**
 * What the classifier needs to know about this deployment. Null arguments take the defaults, so a
 * binder that leaves a property unset gets them; blank or null entries are refused.
 *
 * @param ownedGroups the failing consumer groups this deployment owns; empty = all
 * @param eventIds    where a record carries its eventId
 * @param dialect     how a DLQ topic not in {@code dlqTopics} is read (default {@code AUTO})
 * @param dlqTopics   DLQ topic → how its records are read
 */
public record ClassifierSettings(Set<String> ownedGroups, EventIdSource eventIds, DialectSetting dialect, Map<String, TopicDialect> dlqTopics) {

    public ClassifierSettings {
        ownedGroups = ownedGroups == null ? Set.of() : Set.copyOf(requireNoBlank(ownedGroups));
        eventIds = eventIds == null ? EventIdSource.defaults() : eventIds;
        dialect = dialect == null ? DialectSetting.AUTO : dialect;
        if (dialect == DialectSetting.STREAMS || dialect == DialectSetting.CUSTOM) { // what they need is per topic
            throw new IllegalArgumentException("dialect: " + dialect.name().toLowerCase(java.util.Locale.ROOT) + " can only be set per"
                    + " DLQ topic (dlq-topics), with " + (dialect == DialectSetting.STREAMS
                    ? "the consumer-group that is the Streams application's application.id" : "its headers"));
        }
        dlqTopics = dlqTopics == null ? Map.of() : Map.copyOf(requireValid(dlqTopics));
    }

    public ClassifierSettings(Set<String> ownedGroups, EventIdSource eventIds) {
        this(ownedGroups, eventIds, null, null);
    }

    public static ClassifierSettings defaults() {
        return new ClassifierSettings(null, null);
    }

    /** Whether a failure of {@code consumerGroup} is this deployment's to record. */
    public boolean owns(String consumerGroup) {
        return ownedGroups.isEmpty() || ownedGroups.contains(consumerGroup);
    }

    /** How the records of {@code dlqTopic} are read. */
    public TopicDialect dialectOf(String dlqTopic) {
        TopicDialect topic = dlqTopics.get(dlqTopic);
        return topic != null ? topic : TopicDialect.of(dialect);
    }

    private static Set<String> requireNoBlank(Set<String> values) {
        values.forEach(value -> {
            if (value == null || value.isBlank()) {
                throw new IllegalArgumentException("ownedGroups entry must not be null or blank");
            }
        });
        return values;
    }

    private static Map<String, TopicDialect> requireValid(Map<String, TopicDialect> topics) {
        topics.forEach((topic, read) -> {
            if (!DltHeaderReader.isTopicName(topic)) {
                throw new IllegalArgumentException("dlq-topics: '" + topic + "' is not a Kafka topic name");
            }
            if (read == null) {
                throw new IllegalArgumentException("dlq-topics[" + topic + "]: no dialect given");
            }
        });
        return topics;
    }
}

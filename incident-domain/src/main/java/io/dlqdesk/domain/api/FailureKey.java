package io.dlqdesk.domain.api;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Identifies one failure: where the record lived and which consumer group failed on it.
 * Validates itself so that no incident can be opened on a half-known location.
 */
public record FailureKey(String topic, int partition, long offset, String consumerGroup) {

    // Kafka's own rule for topic names (legal characters, at most 249 of them).
    private static final Pattern TOPIC = Pattern.compile("[a-zA-Z0-9._-]{1,249}");

    public FailureKey {
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(consumerGroup, "consumerGroup");
        if (!TOPIC.matcher(topic).matches()) {
            throw new IllegalArgumentException("topic is not a legal Kafka topic name: '" + topic + "'");
        }
        if (partition < 0) {
            throw new IllegalArgumentException("partition must be >= 0, was " + partition);
        }
        if (offset < 0) {
            throw new IllegalArgumentException("offset must be >= 0, was " + offset);
        }
        if (consumerGroup.isBlank()) {
            throw new IllegalArgumentException("consumerGroup must not be blank");
        }
    }
}

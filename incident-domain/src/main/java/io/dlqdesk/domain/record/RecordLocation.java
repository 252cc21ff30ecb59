package io.dlqdesk.domain.record;

import io.dlqdesk.domain.InvalidValueException;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Where a record lives in Kafka: topic, partition, offset. Used for the original record, for the
 * DLQ record that reported its failure, and for a published replay.
 */
public record RecordLocation(String topic, int partition, long offset) {

    /** Kafka's own limit on a topic name. */
    public static final int MAX_TOPIC_LENGTH = 249;
    // Kafka's own rule for topic names (legal characters, at most 249 of them).
    private static final Pattern TOPIC = Pattern.compile("[a-zA-Z0-9._-]{1," + MAX_TOPIC_LENGTH + "}");

    public RecordLocation {
        Objects.requireNonNull(topic, "topic");
        if (!TOPIC.matcher(topic).matches()) {
            throw new InvalidValueException("topic is not a legal Kafka topic name (" + topic.length() + " characters, at most "
                    + MAX_TOPIC_LENGTH + " of a-z A-Z 0-9 . _ -)");
        }
        if (partition < 0) {
            throw new InvalidValueException("partition must be >= 0, was " + partition);
        }
        if (offset < 0) {
            throw new InvalidValueException("offset must be >= 0, was " + offset);
        }
    }
}

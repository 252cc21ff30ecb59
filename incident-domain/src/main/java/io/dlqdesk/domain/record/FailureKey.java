package io.dlqdesk.domain.record;

import java.util.Objects;

/**
 * Identifies one failure: where the original record lived and which consumer group failed on it.
 * Validates itself so that no incident can be opened on a half-known location.
 */
public record FailureKey(String topic, int partition, long offset, String consumerGroup) {

    /** The widest group any read model stores (its {@code consumer_group} columns). */
    public static final int MAX_GROUP_LENGTH = 255;

    public FailureKey {
        new RecordLocation(topic, partition, offset); // same rules as any location
        Objects.requireNonNull(consumerGroup, "consumerGroup");
        BoundedText.requireIdentifier("consumerGroup", consumerGroup, MAX_GROUP_LENGTH);
    }

    public static FailureKey of(RecordLocation location, String consumerGroup) {
        return new FailureKey(location.topic(), location.partition(), location.offset(), consumerGroup);
    }

    /** The original record's location (not a record component: not serialized). */
    public RecordLocation location() {
        return new RecordLocation(topic, partition, offset);
    }
}

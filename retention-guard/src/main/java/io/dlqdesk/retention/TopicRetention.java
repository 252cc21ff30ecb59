package io.dlqdesk.retention;

import java.util.List;
import java.util.Map;

/** A source topic's effective replay-relevant configuration, where each value comes from, and its flags. */
public record TopicRetention(String topic, Map<String, ConfigValue> configs, List<RetentionFlag> flags, String error) {

    /** {@code source}: default, static-broker, dynamic-topic, dynamic-broker, dynamic-default-broker. */
    public record ConfigValue(String value, String source) {
    }
}

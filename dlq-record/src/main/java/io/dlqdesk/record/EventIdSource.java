package io.dlqdesk.record;

import java.util.Map;

/**
 * Where a record of this deployment carries its eventId. Null arguments take the defaults, so a binder
 * that leaves a property unset gets them; blank or null entries are refused.
 *
 * @param header           header holding the eventId (default {@value #DEFAULT_HEADER})
 * @param jsonFieldByTopic original topic → top-level JSON field of the value holding the eventId; a
 *                         topic listed here ignores the header
 */
public record EventIdSource(String header, Map<String, String> jsonFieldByTopic) {

    public static final String DEFAULT_HEADER = "eventId";

    public EventIdSource {
        header = header == null ? DEFAULT_HEADER : requireNotBlank(header, "eventIdHeader");
        if (jsonFieldByTopic == null) {
            jsonFieldByTopic = Map.of();
        } else {
            jsonFieldByTopic.forEach((topic, field) -> {
                requireNotBlank(topic, "eventIdJsonFieldByTopic key");
                requireNotBlank(field, "eventIdJsonFieldByTopic[" + topic + "]");
            });
            jsonFieldByTopic = Map.copyOf(jsonFieldByTopic);
        }
    }

    public static EventIdSource defaults() {
        return new EventIdSource(null, null);
    }

    private static String requireNotBlank(String value, String name) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(name + " must not be null or blank");
        }
        return value;
    }
}

package io.dlqdesk.ingest.classify;

import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What the classifier needs to know about this deployment. Null arguments take the defaults, so a
 * binder that leaves a property unset gets them; blank or null entries are refused.
 *
 * @param ownedGroups             the failing consumer groups this deployment owns; empty = all
 * @param eventIdHeader           header holding the eventId (default {@value #DEFAULT_EVENT_ID_HEADER})
 * @param eventIdJsonFieldByTopic original topic → top-level JSON field of the value holding the
 *                                eventId; a topic listed here ignores the header
 */
public record ClassifierSettings(
        Set<String> ownedGroups,
        String eventIdHeader,
        Map<String, String> eventIdJsonFieldByTopic) {

    public static final String DEFAULT_EVENT_ID_HEADER = "eventId";

    public ClassifierSettings {
        ownedGroups = ownedGroups == null ? Set.of() : Set.copyOf(requireNoBlank(ownedGroups, "ownedGroups"));
        eventIdHeader = eventIdHeader == null ? DEFAULT_EVENT_ID_HEADER : requireNotBlank(eventIdHeader, "eventIdHeader");
        if (eventIdJsonFieldByTopic == null) {
            eventIdJsonFieldByTopic = Map.of();
        } else {
            eventIdJsonFieldByTopic.forEach((topic, field) -> {
                requireNotBlank(topic, "eventIdJsonFieldByTopic key");
                requireNotBlank(field, "eventIdJsonFieldByTopic[" + topic + "]");
            });
            eventIdJsonFieldByTopic = Map.copyOf(eventIdJsonFieldByTopic);
        }
    }

    public static ClassifierSettings defaults() {
        return new ClassifierSettings(null, null, null);
    }

    /** Whether a failure of {@code consumerGroup} is this deployment's to record. */
    public boolean owns(String consumerGroup) {
        return ownedGroups.isEmpty() || ownedGroups.contains(consumerGroup);
    }

    private static Set<String> requireNoBlank(Set<String> values, String name) {
        values.forEach(value -> requireNotBlank(value, name + " entry"));
        return values;
    }

    private static String requireNotBlank(String value, String name) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(name + " must not be null or blank");
        }
        return value;
    }
}

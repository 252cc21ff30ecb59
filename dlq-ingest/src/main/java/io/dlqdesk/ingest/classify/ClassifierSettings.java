package io.dlqdesk.ingest.classify;

import io.dlqdesk.record.EventIdSource;

import java.util.Set;

/**
 * What the classifier needs to know about this deployment. Null arguments take the defaults, so a
 * binder that leaves a property unset gets them; blank or null entries are refused.
 *
 * @param ownedGroups the failing consumer groups this deployment owns; empty = all
 * @param eventIds    where a record carries its eventId
 */
public record ClassifierSettings(Set<String> ownedGroups, EventIdSource eventIds) {

    public ClassifierSettings {
        ownedGroups = ownedGroups == null ? Set.of() : Set.copyOf(requireNoBlank(ownedGroups));
        eventIds = eventIds == null ? EventIdSource.defaults() : eventIds;
    }

    public static ClassifierSettings defaults() {
        return new ClassifierSettings(null, null);
    }

    /** Whether a failure of {@code consumerGroup} is this deployment's to record. */
    public boolean owns(String consumerGroup) {
        return ownedGroups.isEmpty() || ownedGroups.contains(consumerGroup);
    }

    private static Set<String> requireNoBlank(Set<String> values) {
        values.forEach(value -> {
            if (value == null || value.isBlank()) {
                throw new IllegalArgumentException("ownedGroups entry must not be null or blank");
            }
        });
        return values;
    }
}

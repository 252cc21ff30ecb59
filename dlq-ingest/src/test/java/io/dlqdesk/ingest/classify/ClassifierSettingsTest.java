package io.dlqdesk.ingest.classify;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ClassifierSettingsTest {

    @Test
    void nullsTakeTheDefaults() {
        ClassifierSettings settings = new ClassifierSettings(null, null, null);

        assertThat(settings).isEqualTo(ClassifierSettings.defaults());
        assertThat(settings.ownedGroups()).isEmpty();
        assertThat(settings.eventIdHeader()).isEqualTo("eventId");
        assertThat(settings.eventIdJsonFieldByTopic()).isEmpty();
    }

    @Test
    void emptyOwnedGroupsOwnsEveryGroup() {
        assertThat(ClassifierSettings.defaults().owns("anything")).isTrue();
    }

    @Test
    void restrictedOwnedGroupsOwnOnlyThem() {
        ClassifierSettings settings = new ClassifierSettings(Set.of("billing"), null, null);

        assertThat(settings.owns("billing")).isTrue();
        assertThat(settings.owns("shipping")).isFalse();
    }

    @Test
    void blankOrNullGroupIsRefused() {
        Set<String> withNull = new HashSet<>();
        withNull.add(null);

        assertThatThrownBy(() -> new ClassifierSettings(Set.of(" "), null, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ownedGroups");
        assertThatThrownBy(() -> new ClassifierSettings(withNull, null, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ownedGroups");
    }

    @Test
    void blankEventIdHeaderIsRefused() {
        assertThatThrownBy(() -> new ClassifierSettings(null, " ", null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("eventIdHeader");
    }

    @Test
    void blankJsonFieldOrTopicIsRefused() {
        Map<String, String> nullField = new HashMap<>();
        nullField.put("orders", null);

        assertThatThrownBy(() -> new ClassifierSettings(null, null, Map.of("orders", "")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("eventIdJsonFieldByTopic[orders]");
        assertThatThrownBy(() -> new ClassifierSettings(null, null, Map.of(" ", "id")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("eventIdJsonFieldByTopic key");
        assertThatThrownBy(() -> new ClassifierSettings(null, null, nullField))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void collectionsAreCopied() {
        Set<String> groups = new HashSet<>(Set.of("billing"));
        Map<String, String> fields = new HashMap<>(Map.of("orders", "id"));
        ClassifierSettings settings = new ClassifierSettings(groups, "eventId", fields);

        groups.add("shipping");
        fields.put("payments", "id");

        assertThat(settings.ownedGroups()).containsExactly("billing");
        assertThat(settings.eventIdJsonFieldByTopic()).containsOnlyKeys("orders");
    }
}

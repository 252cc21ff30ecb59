package io.dlqdesk.ingest.classify;

import io.dlqdesk.record.EventIdSource;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ClassifierSettingsTest {

    @Test
    void nullsTakeTheDefaults() {
        ClassifierSettings settings = new ClassifierSettings(null, null);

        assertThat(settings).isEqualTo(ClassifierSettings.defaults());
        assertThat(settings.ownedGroups()).isEmpty();
        assertThat(settings.eventIds()).isEqualTo(EventIdSource.defaults());
    }

    @Test
    void emptyOwnedGroupsOwnsEveryGroup() {
        assertThat(ClassifierSettings.defaults().owns("anything")).isTrue();
    }

    @Test
    void restrictedOwnedGroupsOwnOnlyThem() {
        ClassifierSettings settings = new ClassifierSettings(Set.of("billing"), null);

        assertThat(settings.owns("billing")).isTrue();
        assertThat(settings.owns("shipping")).isFalse();
    }

    @Test
    void blankOrNullGroupIsRefused() {
        Set<String> withNull = new HashSet<>();
        withNull.add(null);

        assertThatThrownBy(() -> new ClassifierSettings(Set.of(" "), null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ownedGroups");
        assertThatThrownBy(() -> new ClassifierSettings(withNull, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ownedGroups");
    }

    @Test
    void ownedGroupsAreCopied() {
        Set<String> groups = new HashSet<>(Set.of("billing"));
        ClassifierSettings settings = new ClassifierSettings(groups, null);

        groups.add("shipping");

        assertThat(settings.ownedGroups()).containsExactly("billing");
    }
}

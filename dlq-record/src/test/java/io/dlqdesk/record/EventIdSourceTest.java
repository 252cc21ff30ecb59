package io.dlqdesk.record;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EventIdSourceTest {

    @Test
    void nullsTakeTheDefaults() {
        EventIdSource source = new EventIdSource(null, null);

        assertThat(source).isEqualTo(EventIdSource.defaults());
        assertThat(source.header()).isEqualTo("eventId");
        assertThat(source.jsonFieldByTopic()).isEmpty();
    }

    @Test
    void givenValuesAreKept() {
        EventIdSource source = new EventIdSource("x-event-id", Map.of("orders", "id"));

        assertThat(source.header()).isEqualTo("x-event-id");
        assertThat(source.jsonFieldByTopic()).containsExactly(Map.entry("orders", "id"));
    }

    @Test
    void blankHeaderIsRefused() {
        assertThatThrownBy(() -> new EventIdSource(" ", null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("eventIdHeader");
    }

    @Test
    void blankJsonFieldOrTopicIsRefused() {
        Map<String, String> nullField = new HashMap<>();
        nullField.put("orders", null);

        assertThatThrownBy(() -> new EventIdSource(null, Map.of("orders", "")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("eventIdJsonFieldByTopic[orders]");
        assertThatThrownBy(() -> new EventIdSource(null, Map.of(" ", "id")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("eventIdJsonFieldByTopic key");
        assertThatThrownBy(() -> new EventIdSource(null, nullField))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theMapIsCopied() {
        Map<String, String> fields = new HashMap<>(Map.of("orders", "id"));
        EventIdSource source = new EventIdSource(null, fields);

        fields.put("payments", "id");

        assertThat(source.jsonFieldByTopic()).containsOnlyKeys("orders");
    }
}

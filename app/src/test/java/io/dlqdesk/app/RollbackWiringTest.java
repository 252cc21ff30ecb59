package io.dlqdesk.app;

import io.dlqdesk.ingest.config.IngestProperties;
import io.dlqdesk.rollback.IngestSubscription;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The rollback check looks at what ingest reads; the command line, which runs without ingest, falls back to ingest's own defaults. */
class RollbackWiringTest {

    @Test
    void theCheckIsGivenTheIngestGroupAndTopicsAsConfigured() {
        IngestProperties ingest = bind(Map.of("dlqdesk.ingest.group-id", "ingest-7", "dlqdesk.ingest.topic-pattern", "team-.*\\.dlq"));

        IngestSubscription subscription = new RollbackWiring().rollbackIngestSubscription(ingest);

        assertThat(subscription.groupId()).isEqualTo("ingest-7");
        assertThat(subscription.topicPattern().pattern()).isEqualTo("team-.*\\.dlq");
    }

    @Test
    void theCommandLinesDefaultsAreTheIngestLoopsDefaults() {
        IngestProperties defaults = bind(Map.of());

        assertThat(IngestSubscription.DEFAULT_GROUP_ID).isEqualTo(defaults.groupId());
        assertThat(IngestSubscription.DEFAULT_TOPIC_PATTERN).isEqualTo(defaults.topicPattern());
    }

    private static IngestProperties bind(Map<String, String> properties) {
        return new Binder(new MapConfigurationPropertySource(properties)).bindOrCreate("dlqdesk.ingest", IngestProperties.class);
    }
}

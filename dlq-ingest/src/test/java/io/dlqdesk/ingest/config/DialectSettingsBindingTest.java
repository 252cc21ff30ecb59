package io.dlqdesk.ingest.config;

import io.dlqdesk.ingest.classify.DialectSetting;
import io.dlqdesk.ingest.classify.HeaderMapping;
import io.dlqdesk.ingest.classify.TopicDialect;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The dialect settings as users write them (docs/configuration.md, docs/dlq-dialects.md) reach the classifier, or stop the start. */
class DialectSettingsBindingTest {

    private static IngestProperties bind(Map<String, String> properties) {
        return new Binder(new MapConfigurationPropertySource(properties)).bindOrCreate("dlqdesk.ingest", IngestProperties.class);
    }

    @Test
    void withNothingSetEveryTopicIsReadAutomatically() {
        IngestProperties properties = bind(Map.of());

        assertThat(properties.dialect()).isEqualTo(DialectSetting.AUTO);
        assertThat(properties.dlqTopics()).isEmpty();
    }

    @Test
    void topicsWithDotsInBracketsBindTheirDialectGroupAndHeaders() {
        IngestProperties properties = bind(Map.of(
                "dlqdesk.ingest.dialect", "spring",
                "dlqdesk.ingest.dlq-topics[orders.enricher.dlq].dialect", "streams",
                "dlqdesk.ingest.dlq-topics[orders.enricher.dlq].consumer-group", "orders-enricher",
                "dlqdesk.ingest.dlq-topics[payments.dlq].dialect", "custom",
                "dlqdesk.ingest.dlq-topics[payments.dlq].headers.topic", "x-source-topic",
                "dlqdesk.ingest.dlq-topics[payments.dlq].headers.partition", "x-source-partition",
                "dlqdesk.ingest.dlq-topics[payments.dlq].headers.offset", "x-source-offset",
                "dlqdesk.ingest.dlq-topics[payments.dlq].headers.consumer-group", "x-failed-group",
                "dlqdesk.ingest.dlq-topics[payments.dlq].headers.numbers", "binary"));

        assertThat(properties.dialect()).isEqualTo(DialectSetting.SPRING);
        assertThat(properties.dlqTopics()).containsEntry("orders.enricher.dlq", TopicDialect.of(DialectSetting.STREAMS, "orders-enricher"));
        assertThat(properties.dlqTopics().get("payments.dlq").headers()).isEqualTo(new HeaderMapping("x-source-topic", "x-source-partition",
                "x-source-offset", "x-failed-group", null, null, null, null, HeaderMapping.Numbers.BINARY, false));
    }

    @Test
    void aStreamsTopicWithoutItsApplicationIdStopsTheBinding() {
        assertThatThrownBy(() -> bind(Map.of("dlqdesk.ingest.dlq-topics[orders.dlq].dialect", "streams")))
                .isInstanceOf(BindException.class).hasMessageContaining("dlqdesk.ingest.dlq-topics[orders.dlq]")
                .rootCause().hasMessageContaining("consumer-group");
    }

    @Test
    void aTopicThePatternDoesNotReadStopsTheStart() {
        IngestProperties elsewhere = bind(Map.of("dlqdesk.ingest.dlq-topics[orders-archive].dialect", "connect"));

        assertThatThrownBy(() -> IngestConfiguration.requireReadTopics(elsewhere)).isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("dlqdesk.ingest.dlq-topics[orders-archive]: dlqdesk.ingest.topic-pattern (.*\\.dlq) reads no topic");
        IngestConfiguration.requireReadTopics(bind(Map.of("dlqdesk.ingest.dlq-topics[orders.dlq].dialect", "connect")));
    }

    @Test
    void aGroupForASpringTopicIsRefusedForSpringNamesItsOwn() {
        assertThatThrownBy(() -> bind(Map.of("dlqdesk.ingest.dlq-topics[orders.dlq].dialect", "spring",
                "dlqdesk.ingest.dlq-topics[orders.dlq].consumer-group", "billing")))
                .isInstanceOf(BindException.class).rootCause().hasMessageContaining("does not apply to the spring dialect");
        assertThat(bind(Map.of("dlqdesk.ingest.dlq-topics[orders.dlq].dialect", "auto", "dlqdesk.ingest.dlq-topics[orders.dlq].consumer-group",
                "billing")).dlqTopics().get("orders.dlq").consumerGroup()).as("auto: for the records whose writer names none").isEqualTo("billing");
    }
}

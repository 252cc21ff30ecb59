package io.dlqdesk.app;

import io.dlqdesk.ingest.classify.ClassifierSettings;
import io.dlqdesk.ingest.classify.DialectSetting;
import io.dlqdesk.ingest.classify.HeaderMapping;
import io.dlqdesk.ingest.classify.TopicDialect;
import io.dlqdesk.ingest.config.IngestProperties;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ByteArrayResource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** The dialect settings the docs show, bound as the service binds them: what a reader copies works. */
class DialectSettingsDocumentedTest {

    private static final Pattern YAML_BLOCK = Pattern.compile("```yaml\\n(.*?)```", Pattern.DOTALL);

    /** The first yaml block of a page, bound to {@code dlqdesk.ingest}. */
    private static IngestProperties bound(String page) throws IOException {
        Matcher block = YAML_BLOCK.matcher(Files.readString(Path.of("..", "docs", page)));
        assertThat(block.find()).as("a yaml block in docs/" + page).isTrue();
        MutablePropertySources sources = new MutablePropertySources();
        for (PropertySource<?> source : new YamlPropertySourceLoader().load(page,
                new ByteArrayResource(block.group(1).getBytes(StandardCharsets.UTF_8)))) {
            sources.addLast(source);
        }
        return new Binder(ConfigurationPropertySources.from(sources)).bindOrCreate("dlqdesk.ingest", IngestProperties.class);
    }

    @Test
    void theOverviewsExampleSetsAConnectAStreamsAndAnInHouseTopic() throws IOException {
        IngestProperties ingest = bound("dlq-dialects.md");

        assertThat(ingest.dialect()).isEqualTo(DialectSetting.AUTO);
        assertThat(ingest.dlqTopics()).containsEntry("orders-sink.dlq", TopicDialect.of(DialectSetting.CONNECT))
                .containsEntry("orders-enricher.dlq", TopicDialect.of(DialectSetting.STREAMS, "orders-enricher"));
        assertThat(ingest.dlqTopics().get("billing.dlq").headers()).isEqualTo(new HeaderMapping("x-source-topic", "x-source-partition",
                "x-source-offset", "x-failed-group", "x-source-time", "x-error-class", "x-error-message", null, HeaderMapping.Numbers.TEXT, false));
        assertThat(new ClassifierSettings(null, null, ingest.dialect(), ingest.dlqTopics()).dialectOf("orders-sink.dlq").dialect())
                .isEqualTo(DialectSetting.CONNECT);
    }

    @Test
    void theStreamsPagesExampleNamesTheApplicationId() throws IOException {
        assertThat(bound("dlq-dialect-streams.md").dlqTopics())
                .containsExactlyEntriesOf(java.util.Map.of("orders-enricher.dlq", TopicDialect.of(DialectSetting.STREAMS, "orders-enricher")));
    }

    @Test
    void theInHousePagesExampleMapsEveryHeader() throws IOException {
        TopicDialect billing = bound("dlq-dialect-custom.md").dlqTopics().get("billing.dlq");

        assertThat(billing.dialect()).isEqualTo(DialectSetting.CUSTOM);
        assertThat(billing.headers()).isEqualTo(new HeaderMapping("x-source-topic", "x-source-partition", "x-source-offset", "x-failed-group",
                "x-source-time", "x-error-class", "x-error-message", "x-error-trace", HeaderMapping.Numbers.TEXT, false));
    }

    @EnableConfigurationProperties(IngestProperties.class)
    static class IngestSettingsOnly {
    }

    @Test
    void aTopicNameWithDotsWrittenWithoutBracketsStopsTheStartInsteadOfBeingDropped() {
        new ApplicationContextRunner().withUserConfiguration(IngestSettingsOnly.class)
                .withPropertyValues("dlqdesk.ingest.dlq-topics.orders.dlq.dialect=connect")
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                        .hasMessageContaining("dlqdesk.ingest.dlq-topics.orders.dlq.dialect"));
        new ApplicationContextRunner().withUserConfiguration(IngestSettingsOnly.class)
                .withPropertyValues("dlqdesk.ingest.dlq-topics[orders.dlq].dialect=connect")
                .run(context -> assertThat(context).hasNotFailed().getBean(IngestProperties.class).extracting(IngestProperties::dlqTopics)
                        .isEqualTo(java.util.Map.of("orders.dlq", TopicDialect.of(DialectSetting.CONNECT))));
    }
}

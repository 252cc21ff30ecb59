package io.dlqdesk.app;

import io.dlqdesk.retention.RetentionBudget;
import io.dlqdesk.retention.RetentionProperties;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ClassPathResource;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The shipped configuration as a user gets it: application.yml bound over the properties' own defaults, nothing set here. */
class ShippedDefaultsTest {

    static Binder shipped() throws Exception {
        List<PropertySource<?>> yaml = new YamlPropertySourceLoader().load("shipped", new ClassPathResource("application.yml"));
        return new Binder(ConfigurationPropertySources.from(yaml));
    }

    @Test
    void theShippedRetentionBudgetHoldsSoTheServiceStarts() throws Exception {
        Binder binder = shipped();
        RetentionProperties retention = binder.bindOrCreate("dlqdesk.retention", RetentionProperties.class);
        Duration replayWindow = binder.bind("dlqdesk.replay-window", Duration.class).get();

        assertThat(new RetentionBudget(replayWindow, retention.clockSkewMargin(), retention.cleanupDelayMargin(),
                retention.consumerIdempotencyRetention()).violations()).isEmpty();
    }

    @Test
    void theEventsPublisherSharesProduceRequestsButHoldsASendBrieflyInBatchesKafkaCanSplit() throws Exception {
        Map<String, String> producer = shipped().bind("axon.kafka.producer.properties", Bindable.mapOf(String.class, String.class)).get();
        // kafka-clients 3.9's linger.ms (0) made a storm's events requests of a few events each
        assertThat(Integer.parseInt(producer.get("linger.ms"))).isBetween(5, 50);
        // a larger batch.size than the 16 KiB default makes a too-large event fail its whole batch for ever (ParkedEventsIT)
        assertThat(producer).doesNotContainKey("batch.size").containsEntry("enable.idempotence", "true");
    }

    @Test
    void theCleanupMarginCoversAConsumersDailyHistoryCleanup() throws Exception {
        // the seed's margin: consumers prune their processed-eventId history once a day
        assertThat(shipped().bindOrCreate("dlqdesk.retention", RetentionProperties.class).cleanupDelayMargin())
                .isGreaterThanOrEqualTo(Duration.ofDays(1));
    }
}

package io.dlqdesk.rollback.cli;

import io.dlqdesk.kafka.KafkaConnection;
import io.dlqdesk.rollback.IngestSubscription;
import org.junit.jupiter.api.Test;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The command line reads the ingest group, DLQ topics and brokers under the service's names, from arguments or the environment. */
class CommandIngestSettingsTest {

    private final RollbackCheckCommand.CommandConfiguration configuration = new RollbackCheckCommand.CommandConfiguration();

    @Test
    void unsetTheyAreTheShippedDefaults() {
        IngestSubscription subscription = configuration.ingestSubscription(new StandardEnvironment());

        assertThat(subscription.groupId()).isEqualTo("dlq-incident-desk-ingest");
        assertThat(subscription.topicPattern().pattern()).isEqualTo(".*\\.dlq");
    }

    @Test
    void setTheyAreReadUnderTheIngestLoopsNames() {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("arguments", Map.of("dlqdesk.ingest.topic-pattern", "team-.*\\.dlq")));
        environment.getPropertySources().replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, new SystemEnvironmentPropertySource(
                StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, Map.of("DLQDESK_INGEST_GROUPID", "ingest-7")));

        IngestSubscription subscription = configuration.ingestSubscription(environment);

        assertThat(subscription.groupId()).isEqualTo("ingest-7");
        assertThat(subscription.topicPattern().pattern()).isEqualTo("team-.*\\.dlq");
    }

    @Test
    void aBlankGroupIsRefused() {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("arguments", Map.of("dlqdesk.ingest.group-id", " ")));

        assertThatThrownBy(() -> configuration.ingestSubscription(environment)).hasMessageContaining("dlqdesk.ingest.group-id");
    }

    @Test
    void theBrokersAreReadUnderTheServicesNameAndTheClientIdsKeepItsPrefix() {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("arguments",
                Map.of("spring.kafka.bootstrap-servers", "b1:9092,b2:9092")));

        KafkaConnection kafka = configuration.kafkaConnection(environment);

        assertThat(kafka.bootstrapServers()).isEqualTo("b1:9092,b2:9092");
        assertThat(kafka.clientId("rollback-check-1")).isEqualTo("dlq-incident-desk-rollback-check-1");
    }

    @Test
    void withoutBrokersTheCommandDoesNotStart() {
        assertThatThrownBy(() -> configuration.kafkaConnection(new StandardEnvironment()))
                .hasMessageContaining("spring.kafka.bootstrap-servers");
    }
}

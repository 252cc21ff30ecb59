package io.dlqdesk.app;

import jakarta.validation.constraints.NotEmpty;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

import java.util.List;

/**
 * The one place the broker address is configured; Axon's Kafka extension reads it through a
 * placeholder. Required: with no address the service refuses to start instead of trying
 * localhost:9092.
 */
@Validated
@ConfigurationProperties("spring.kafka")
record KafkaEndpoint(
        @NotEmpty(message = "is required: the Kafka bootstrap servers (spring.kafka.bootstrap-servers)") List<String> bootstrapServers) {
}

package io.dlqdesk.app;

import jakarta.validation.constraints.NotBlank;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/** {@code spring.application.name}: the default ledger name and the prefix of every Kafka client id. */
@Validated
@ConfigurationProperties("spring.application")
record ApplicationName(@NotBlank String name) {
}

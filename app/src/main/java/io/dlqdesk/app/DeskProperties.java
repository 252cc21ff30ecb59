package io.dlqdesk.app;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

import java.time.Duration;

/** {@code dlqdesk.*}: this service's own settings, checked at start-up (the ledger's by {@link io.dlqdesk.domain.incident.Ledger}). */
@Validated
@ConfigurationProperties("dlqdesk")
record DeskProperties(
        @NotBlank @Pattern(regexp = "[a-zA-Z0-9._-]{1,249}", message = "must be a legal Kafka topic name") String eventsTopic,
        @NotBlank String ledgerName,
        @NotNull Duration replayWindow) {
}

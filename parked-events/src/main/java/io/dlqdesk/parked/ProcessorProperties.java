package io.dlqdesk.parked;

import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import java.time.Duration;

/** How long an event processor may stand still while events wait before readiness turns DOWN (docs/operations.md). */
@Validated
@ConfigurationProperties("dlqdesk.processors")
public record ProcessorProperties(
        /* a segment this instance holds that has not moved for this long while the event store holds events past it turns
           readiness DOWN (component eventProcessors), naming the processor */
        @NotNull @DefaultValue("2m") Duration stallTimeout) {

    public ProcessorProperties {
        if (stallTimeout.compareTo(Duration.ofSeconds(10)) < 0) {
            throw new IllegalArgumentException("dlqdesk.processors.stall-timeout must be at least 10s (the processors' own back-off"
                    + " after a failure reaches 60 s), was " + stallTimeout);
        }
    }
}

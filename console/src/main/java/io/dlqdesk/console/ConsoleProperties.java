package io.dlqdesk.console;

import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

import java.time.Duration;

/**
 * {@code dlqdesk.console.*}: how often the overview refreshes itself, and how much of a record's key, header or value a
 * page shows (the rest is cut, with its size said).
 *
 * @param refreshInterval    the overview's polling interval (1 s to 10 min)
 * @param recordDisplayLimit bytes of a key, value or header shown at most (1 KB to 1 MB)
 */
@Validated
@ConfigurationProperties("dlqdesk.console")
public record ConsoleProperties(@NotNull @DefaultValue("10s") Duration refreshInterval,
                                @NotNull @DefaultValue("64KB") DataSize recordDisplayLimit) {

    public ConsoleProperties {
        if (refreshInterval != null && (refreshInterval.compareTo(Duration.ofSeconds(1)) < 0
                || refreshInterval.compareTo(Duration.ofMinutes(10)) > 0)) {
            throw new IllegalArgumentException("dlqdesk.console.refresh-interval must be between 1s and 10m, was " + refreshInterval);
        }
        if (recordDisplayLimit != null && (recordDisplayLimit.toBytes() < 1024 || recordDisplayLimit.toBytes() > 1024 * 1024)) {
            throw new IllegalArgumentException("dlqdesk.console.record-display-limit must be between 1KB and 1MB, was " + recordDisplayLimit);
        }
    }
}

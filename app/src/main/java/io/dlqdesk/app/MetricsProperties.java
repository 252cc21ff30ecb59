package io.dlqdesk.app;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import java.time.Duration;

/**
 * {@code dlqdesk.metrics.*}: the gauges read from the database, how often they are refreshed, the bound on
 * each query, and the most series a labelled family publishes (the rest summed under {@code other}).
 */
@Validated
@ConfigurationProperties("dlqdesk.metrics")
record MetricsProperties(
        @NotNull @DefaultValue("15s") Duration refreshInterval,
        @NotNull @DefaultValue("5s") Duration queryTimeout,
        @Min(1) @Max(1000) @DefaultValue("50") int maxSeriesPerFamily) {

    MetricsProperties {
        if (refreshInterval != null && queryTimeout != null && (refreshInterval.compareTo(Duration.ofSeconds(1)) < 0
                || queryTimeout.compareTo(Duration.ofSeconds(1)) < 0 || queryTimeout.compareTo(refreshInterval) > 0)) {
            throw new IllegalArgumentException("dlqdesk.metrics.refresh-interval (" + refreshInterval + ") and query-timeout (" + queryTimeout
                    + ") must be at least 1s, the timeout at most the interval: a refresh must end before the next is due");
        }
    }
}

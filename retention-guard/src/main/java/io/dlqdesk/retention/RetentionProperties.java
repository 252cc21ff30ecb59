package io.dlqdesk.retention;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;
import java.util.List;

/** {@code dlqdesk.retention.*} (defaults here are the shipped ones, listed in README). */
@ConfigurationProperties("dlqdesk.retention")
public record RetentionProperties(
        @DefaultValue("5m") Duration clockSkewMargin,
        @DefaultValue("1h") Duration cleanupDelayMargin,
        /* how long the consumers of the source topics remember processed eventIds: declare yours */
        @DefaultValue("8d") Duration consumerIdempotencyRetention,
        /* source topics to report on besides those seen in incidents */
        @DefaultValue({}) List<String> topics,
        @DefaultValue("1h") Duration checkInterval,
        @DefaultValue("10s") Duration adminTimeout) {
}

package io.dlqdesk.retention;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;
import java.util.List;

/** {@code dlqdesk.retention.*} (defaults here are the shipped ones, listed in docs/configuration.md). */
@ConfigurationProperties("dlqdesk.retention")
public record RetentionProperties(
        @DefaultValue("5m") Duration clockSkewMargin,
        /* the consumers' processed-history cleanup typically runs once a day: a record's eventId may be forgotten a day early */
        @DefaultValue("1d") Duration cleanupDelayMargin,
        /* how long the consumers of the source topics remember processed eventIds: declare yours (default: 7d window + margins fit) */
        @DefaultValue("9d") Duration consumerIdempotencyRetention,
        /* source topics to report on besides those seen in incidents */
        @DefaultValue({}) List<String> topics,
        @DefaultValue("1h") Duration checkInterval,
        /* the deadline of one report: every topic's configuration in one broker call */
        @DefaultValue("10s") Duration adminTimeout,
        /* how long the report endpoint serves the last report before asking the brokers again (0: every time) */
        @DefaultValue("1m") Duration reportCacheTtl) {

    public RetentionProperties {
        if (reportCacheTtl.isNegative()) {
            throw new IllegalArgumentException("dlqdesk.retention.report-cache-ttl=" + reportCacheTtl + " must not be negative");
        }
    }
}

package io.dlqdesk.replay.config;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

import java.time.Duration;
import java.util.Set;

/** {@code dlqdesk.replay.*}: replay requests, the outbox poller and its producer. Defaults are the shipped ones (listed in docs/configuration.md). */
@Validated
@ConfigurationProperties("dlqdesk.replay")
public record ReplayProperties(
        /* true: the switch is off whatever an admin sets at run time */
        @DefaultValue("false") boolean forceOff,
        /* regular expression over the source topic; a topic that does not match is never replayed. Empty (the default):
           no topic is replayed until this is configured */
        @NotNull @DefaultValue("") String allowedTopics,
        @Min(1) @Max(100) @DefaultValue("3") int maxAttempts,
        @NotNull @DefaultValue("10s") Duration sourceReadTimeout,
        @NotNull @DefaultValue("30s") Duration publishTimeout,
        /* the producer's max.request.size: at least the biggest record the source topics accept */
        @NotNull @DefaultValue("16MB") DataSize maxRequestSize,
        /* headers of the original record not copied to the replay (ignoring case) */
        @DefaultValue({"traceparent", "tracestate", "b3", "X-B3-TraceId", "X-B3-SpanId", "X-B3-ParentSpanId", "X-B3-Sampled",
                "X-B3-Flags", "uber-trace-id"}) Set<String> deniedHeaders,
        @NotNull @DefaultValue("1s") Duration pollInterval,
        /* rows one poller round claims, sends together and records in one commit; a crash in a round re-sends up to this many */
        @Min(1) @Max(1000) @DefaultValue("50") int claimSize,
        @Min(1) @DefaultValue("5") int maxTries,
        @NotNull @DefaultValue("1s") Duration initialBackoff,
        @NotNull @DefaultValue("1m") Duration maxBackoff,
        /* how long the poller keeps trying to record a send the broker acknowledged as SENT (never a failed try);
           after that the row stays PENDING and is sent again */
        @NotNull @DefaultValue("2m") Duration markSentRetryFor,
        /* after a request, and between later checks: when a missing result is looked into */
        @NotNull @DefaultValue("5m") Duration reconciliationDelay) {
}

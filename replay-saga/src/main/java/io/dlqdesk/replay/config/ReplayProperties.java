package io.dlqdesk.replay.config;

import io.dlqdesk.replay.outbox.ReplayPublisher;
import io.dlqdesk.replay.outbox.ReplaySigner;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

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
        @NotNull @DefaultValue("5m") Duration reconciliationDelay,
        /* the signature of the correlation headers, without which no dlq-desk-consumer skips a replay */
        @Valid @NotNull @DefaultValue Signing signing,
        /* refuse replaying a record whose key the target group has since processed a newer record of */
        @Valid @NotNull @DefaultValue StaleKeyCheck staleKeyCheck) {

    /**
     * {@code dlqdesk.replay.stale-key-check.*}: for the source topics {@code topics} matches (a regular expression; empty:
     * none), a replay is refused STALE_KEY when the target group has already processed a later record with the same key,
     * reading at most {@code max-records} records within {@code timeout} (beyond either: KEY_FRESHNESS_UNKNOWN).
     */
    public record StaleKeyCheck(
            @NotNull @DefaultValue("") String topics,
            @Min(1) @DefaultValue("100000") long maxRecords,
            @NotNull @DefaultValue("10s") Duration timeout) {
    }

    /**
     * {@code dlqdesk.replay.signing.*}: replays are signed with the key {@code active-key-id} names among {@code keys}
     * (key id → secret of at least 32 bytes, e.g. from the environment: {@code DLQDESK_REPLAY_SIGNING_KEYS_<ID>}).
     * Consumers hold the same keys. Both empty (the default): replays go out unsigned, which ReplayConfiguration
     * says at startup and in a gauge; anything in between refuses to start.
     */
    public record Signing(
            /* empty: unsigned */
            @NotNull @DefaultValue("") String activeKeyId,
            Map<String, String> keys) {

        public Signing {
            keys = keys == null ? Map.of() : Map.copyOf(keys);
        }

        /** The signer these settings describe; an IllegalStateException names what is wrong, never a secret. */
        public ReplaySigner signer() {
            if (activeKeyId.isEmpty() && keys.isEmpty()) {
                return ReplaySigner.unsigned();
            }
            if (activeKeyId.isEmpty()) {
                throw new IllegalStateException("dlqdesk.replay.signing.keys holds " + keyIds()
                        + " but dlqdesk.replay.signing.active-key-id is not set: name the key replays are signed with");
            }
            String secret = keys.get(activeKeyId);
            if (secret == null) {
                throw new IllegalStateException("dlqdesk.replay.signing.active-key-id is '" + activeKeyId
                        + "' but dlqdesk.replay.signing.keys holds no such key, only " + keyIds());
            }
            try {
                // every key, not just the active one: a short secret kept for a later rotation is wrong now already
                keys.forEach(ReplaySigner::of);
                return ReplaySigner.of(activeKeyId, secret);
            } catch (IllegalArgumentException e) {
                throw new IllegalStateException("dlqdesk.replay.signing.keys: " + e.getMessage(), e);
            }
        }

        private Set<String> keyIds() {
            return new TreeSet<>(keys.keySet());
        }

        @Override
        public String toString() {
            return "Signing[activeKeyId=" + activeKeyId + ", keys=" + keyIds() + "]"; // never the secrets
        }
    }
}

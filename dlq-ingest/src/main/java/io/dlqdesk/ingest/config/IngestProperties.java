package io.dlqdesk.ingest.config;

import io.dlqdesk.ingest.classify.DialectSetting;
import io.dlqdesk.ingest.classify.TopicDialect;
import io.dlqdesk.ingest.loop.MalformedPolicy;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import java.time.Duration;
import java.util.Map;
import java.util.Set;

/**
 * {@code dlqdesk.ingest.*}: the DLQ consumer. Defaults here are the shipped ones (listed in docs/configuration.md). A
 * property under the prefix that binds to nothing stops the start: a misspelt key, or a DLQ topic name with dots written
 * without brackets, would otherwise be dropped without a word.
 */
@Validated
@ConfigurationProperties(prefix = "dlqdesk.ingest", ignoreUnknownFields = false)
public record IngestProperties(
        @DefaultValue("true") boolean enabled,
        @NotBlank @DefaultValue(".*\\.dlq") String topicPattern,
        @NotBlank @DefaultValue("dlq-incident-desk-ingest") String groupId,
        /* empty: every failing group is ours */
        @DefaultValue({}) Set<String> ownedGroups,
        @NotBlank @DefaultValue("eventId") String eventIdHeader,
        /* original topic -> top-level JSON field of the value that holds the eventId */
        @DefaultValue({}) Map<String, String> eventIdJsonField,
        @NotNull @DefaultValue("quarantine") MalformedPolicy malformedPolicy,
        @Min(1) @DefaultValue("4") int workers,
        @Min(1) @DefaultValue("256") int maxInFlight,
        @Min(1) @DefaultValue("1000") int maxAwaitingCommitPerPartition,
        /* first failures written per database transaction */
        @Min(1) @DefaultValue("50") int batchSize,
        @NotNull @DefaultValue("500ms") Duration pollTimeout,
        @NotNull @DefaultValue("10s") Duration commitTimeout,
        @NotNull @DefaultValue("200ms") Duration retryInitialBackoff,
        @NotNull @DefaultValue("10s") Duration retryMaxBackoff,
        @NotNull @DefaultValue("2s") Duration restartBackoff,
        /* tries of a write that fails for a reason of the record's own, before the malformed policy takes it */
        @Min(1) @DefaultValue("5") int maxRecordAttempts,
        @NotNull @DefaultValue("30s") Duration readinessTimeout,
        @NotNull @DefaultValue("5m") Duration livenessTimeout,
        /* on stop, the longest wait for the records in flight to be written before the prefix is committed and the group left */
        @NotNull @DefaultValue("10s") Duration drainTimeout,
        /* how a DLQ topic not in dlq-topics is read: auto (per record, by the writer's headers), spring or connect */
        @NotNull @DefaultValue("auto") DialectSetting dialect,
        /* DLQ topic -> its dialect and, where the writer names none, its failing group (required for streams) */
        @DefaultValue({}) Map<String, TopicDialect> dlqTopics) {
}

package io.dlqdesk.domain.record;

/**
 * Whose headers a DLQ record was read by. What the desk can know about a failure depends on it: only Spring Kafka's
 * recoverer writes the failing group, the source timestamp with its type and the cause's class; the two writers Apache
 * Kafka ships write none of them (docs/dlq-dialects.md).
 */
public enum DlqDialect {
    /** Spring Kafka's {@code DeadLetterPublishingRecoverer} ({@code kafka_dlt-*}). */
    SPRING,
    /** A Kafka Connect sink connector's dead-letter queue ({@code __connect.errors.*}, context headers on). */
    CONNECT,
    /** Kafka Streams' dead-letter queue, from kafka-streams 4.2 ({@code __streams.errors.*}). */
    STREAMS,
    /** An in-house writer's headers, named in the desk's settings for its DLQ topic. */
    CUSTOM
}

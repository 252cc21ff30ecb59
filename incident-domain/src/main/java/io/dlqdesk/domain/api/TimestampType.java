package io.dlqdesk.domain.api;

/** Kafka's timestamp types; a record without a timestamp has no {@link OriginalTimestamp} at all. */
public enum TimestampType {
    CREATE_TIME,
    LOG_APPEND_TIME
}

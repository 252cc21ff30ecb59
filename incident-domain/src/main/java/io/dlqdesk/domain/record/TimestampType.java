package io.dlqdesk.domain.record;

/** Kafka's timestamp types; a record without a timestamp has no {@link OriginalTimestamp} at all. */
public enum TimestampType {
    CREATE_TIME,
    LOG_APPEND_TIME,
    /** The DLQ record named a type Kafka does not have: the raw value is kept in {@link OriginalTimestamp#rawType()}. */
    UNKNOWN
}

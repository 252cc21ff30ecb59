package io.dlqdesk.domain.api;

import java.time.Instant;
import java.util.Objects;

/** The original record's timestamp and its type (Kafka timestamps are whole milliseconds, not negative). */
public record OriginalTimestamp(Instant instant, TimestampType type) {

    public OriginalTimestamp {
        Objects.requireNonNull(instant, "instant");
        Objects.requireNonNull(type, "type");
        if (instant.isBefore(Instant.EPOCH)) {
            throw new IllegalArgumentException("a Kafka timestamp is not before the epoch: " + instant);
        }
        if (instant.getNano() % 1_000_000 != 0) {
            throw new IllegalArgumentException("a Kafka timestamp has millisecond precision: " + instant);
        }
    }

    public static OriginalTimestamp ofEpochMilli(long epochMilli, TimestampType type) {
        return new OriginalTimestamp(Instant.ofEpochMilli(epochMilli), type);
    }
}

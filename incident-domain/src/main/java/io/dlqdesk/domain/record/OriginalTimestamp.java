package io.dlqdesk.domain.record;

import io.dlqdesk.domain.InvalidValueException;
import java.time.Instant;
import java.util.Objects;

/**
 * The original record's timestamp and its type (Kafka timestamps are whole milliseconds, not negative).
 * {@code rawType} is the header's text when the type is {@link TimestampType#UNKNOWN} (kept, not
 * guessed), and null otherwise.
 */
public record OriginalTimestamp(Instant instant, TimestampType type, String rawType) {

    public static final int MAX_RAW_TYPE_LENGTH = 64;
    /**
     * The latest instant a timestamp may name: its replay deadline (up to a year later) must still be a date every store
     * and read model can hold (MySQL's DATETIME ends with 9999). A DLQ header naming a later one is forged or broken.
     */
    public static final Instant LATEST = Instant.parse("9998-12-31T23:59:59.999Z");

    public OriginalTimestamp {
        Objects.requireNonNull(instant, "instant");
        Objects.requireNonNull(type, "type");
        if (instant.isBefore(Instant.EPOCH)) {
            throw new InvalidValueException("a Kafka timestamp is not before the epoch: " + instant);
        }
        if (instant.isAfter(LATEST)) {
            throw new InvalidValueException("a timestamp after " + LATEST + " is not one the desk can keep: " + instant.toEpochMilli() + " ms");
        }
        if (instant.getNano() % 1_000_000 != 0) {
            throw new InvalidValueException("a Kafka timestamp has millisecond precision: " + instant);
        }
        if ((type == TimestampType.UNKNOWN) != (rawType != null)) {
            throw new InvalidValueException("the raw type is kept exactly when the type is UNKNOWN");
        }
        if (rawType != null && rawType.length() > MAX_RAW_TYPE_LENGTH) {
            throw new InvalidValueException("rawType must be at most " + MAX_RAW_TYPE_LENGTH + " characters");
        }
    }

    public OriginalTimestamp(Instant instant, TimestampType type) {
        this(instant, type, null);
    }

    public static OriginalTimestamp ofEpochMilli(long epochMilli, TimestampType type) {
        return new OriginalTimestamp(Instant.ofEpochMilli(epochMilli), type);
    }

    /** A timestamp whose type header named no Kafka type: the instant is still known, the raw text is kept. */
    public static OriginalTimestamp ofEpochMilliWithUnknownType(long epochMilli, String rawType) {
        return new OriginalTimestamp(Instant.ofEpochMilli(epochMilli), TimestampType.UNKNOWN, Objects.requireNonNull(rawType, "rawType"));
    }
}

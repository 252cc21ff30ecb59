package io.dlqdesk.domain.record;

import io.dlqdesk.domain.InvalidValueException;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * A record's key bytes, compared byte for byte. {@code bytes} is null when the record had no key,
 * which Kafka distinguishes from an empty key. Copied in and out: a record's byte[] is mutable.
 */
public record RecordKey(byte[] bytes) {

    public static final RecordKey NONE = new RecordKey(null);

    /** 64 KiB: far above any key a partitioner needs, small enough for every event that carries it. */
    public static final int MAX_BYTES = 64 * 1024;

    public RecordKey {
        if (bytes != null && bytes.length > MAX_BYTES) {
            throw new InvalidValueException("key: " + bytes.length + " bytes, longer than " + MAX_BYTES);
        }
        bytes = bytes == null ? null : bytes.clone();
    }

    public static RecordKey of(byte[] bytes) {
        return new RecordKey(bytes);
    }

    @Override
    public byte[] bytes() {
        return bytes == null ? null : bytes.clone();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof RecordKey key && Arrays.equals(bytes, key.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
        return bytes == null ? "RecordKey[none]" : "RecordKey[" + HexFormat.of().formatHex(bytes) + "]";
    }
}

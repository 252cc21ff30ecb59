package io.dlqdesk.projections.incident;

import io.dlqdesk.domain.record.RecordKey;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * How the incident list finds a record key: by the SHA-256 of its bytes (lower-case hex), so any key, however long
 * or binary, is one fixed-width indexed value, and the bytes themselves stay in the event store.
 */
final class KeyHash {

    private KeyHash() {
    }

    /** Null for a record without a key (which Kafka tells apart from an empty key). */
    static String of(RecordKey key) {
        byte[] bytes = key == null ? null : key.bytes();
        if (bytes == null) {
            return null;
        }
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime provides SHA-256", e);
        }
    }
}

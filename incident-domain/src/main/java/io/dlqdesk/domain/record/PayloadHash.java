package io.dlqdesk.domain.record;

import io.dlqdesk.domain.InvalidValueException;
import java.util.HexFormat;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * SHA-256 of a record's raw value bytes, as 64 lower-case hex digits. Computed from the full value
 * (never from a truncated copy), so it can prove a re-read or re-failed record is the same one.
 */
public record PayloadHash(String hex) {

    private static final Pattern FORMAT = Pattern.compile("[0-9a-f]{64}");

    public PayloadHash {
        Objects.requireNonNull(hex, "hex");
        if (!FORMAT.matcher(hex).matches()) {
            throw new InvalidValueException("not a SHA-256 in lower-case hex: '" + hex + "'");
        }
    }

    /** Hashes a record value; a tombstone (null value) has no hash, so it is refused here. */
    public static PayloadHash of(byte[] value) {
        Objects.requireNonNull(value, "value (a tombstone has no payload hash)");
        return new PayloadHash(HexFormat.of().formatHex(Sha256.digest(value)));
    }
}

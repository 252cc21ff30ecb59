package io.dlqdesk.domain.incident;

import io.dlqdesk.domain.InvalidValueException;
import io.dlqdesk.domain.record.FailedRecord;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.domain.record.RecordLocation;
import io.dlqdesk.domain.record.Sha256;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The incident id, derived from the root failure key so that re-ingesting the same DLQ record can
 * never open a second incident: {@code inc-} followed by the first 16 bytes of a SHA-256, in hex.
 */
public record IncidentId(String value) {

    private static final String PREFIX = "inc-";
    private static final int HASH_BYTES = 16;
    private static final Pattern FORMAT = Pattern.compile(PREFIX + "[0-9a-f]{" + (HASH_BYTES * 2) + "}");

    public IncidentId {
        Objects.requireNonNull(value, "value");
        if (!FORMAT.matcher(value).matches()) {
            throw new InvalidValueException("not an incident id: '" + value + "' (expected " + FORMAT.pattern() + ")");
        }
    }

    /** Strict parser for ids that arrive from outside (URLs, headers). */
    public static IncidentId parse(String text) {
        return new IncidentId(text);
    }

    public static IncidentId of(FailureKey key) {
        // Topic names cannot contain NUL and the group is last, so the encoding is unambiguous.
        String canonical = key.topic() + '\0' + key.partition() + '\0' + key.offset() + '\0' + key.consumerGroup();
        byte[] digest = Sha256.digest(canonical.getBytes(StandardCharsets.UTF_8));
        return new IncidentId(PREFIX + HexFormat.of().formatHex(digest, 0, HASH_BYTES));
    }

    /**
     * The id of an incident keyed by the DLQ record that reported it, not by the failure key: for a
     * failure whose original location is unknown, and for a record whose failure key is already
     * taken by different content. Starts with NUL (a topic cannot), so it never equals {@link #of}.
     */
    public static IncidentId ofDlqRecord(RecordLocation dlqLocation) {
        String canonical = "\0dlq\0" + dlqLocation.topic() + '\0' + dlqLocation.partition() + '\0' + dlqLocation.offset();
        return new IncidentId(PREFIX + HexFormat.of().formatHex(Sha256.digest(canonical.getBytes(StandardCharsets.UTF_8)), 0, HASH_BYTES));
    }

    /** The id a failure opens: from its failure key, or from its DLQ record when the original location is unknown. */
    public static IncidentId forFailure(FailedRecord failure) {
        return failure.originalLocationKnown() ? of(failure.failureKey()) : ofDlqRecord(failure.dlqLocation());
    }

    /** The id of one replay attempt of this incident: the replay saga's and the outbox row's key. */
    public String replayId(int attempt) {
        CommandArguments.requireAttempt(attempt);
        return value + "/" + attempt;
    }

    /** Axon routes and stores aggregates by {@code toString()}. */
    @Override
    public String toString() {
        return value;
    }
}

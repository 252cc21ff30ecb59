package io.dlqdesk.domain.api;

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
            throw new IllegalArgumentException("not an incident id: '" + value + "' (expected " + FORMAT.pattern() + ")");
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

package io.dlqdesk.projections.asof;

import io.dlqdesk.domain.InvalidValueException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Where the next page of an as-of answer starts: after the interval that began at {@code validFromNanos} for
 * {@code incidentId}, in the answer's order (newest status first). Opaque to callers: a URL-safe token.
 */
public record AsOfCursor(long validFromNanos, String incidentId) {

    private static final Pattern FORM = Pattern.compile("(-?\\d{1,19}):([A-Za-z0-9-]{1,36})");

    public AsOfCursor {
        Objects.requireNonNull(incidentId, "incidentId");
    }

    public String token() {
        return Base64.getUrlEncoder().withoutPadding().encodeToString((validFromNanos + ":" + incidentId).getBytes(StandardCharsets.US_ASCII));
    }

    /** The cursor a token names; a token this service did not hand out is an {@link IllegalArgumentException} that says so. */
    public static AsOfCursor of(String token) {
        String text;
        try {
            text = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.US_ASCII);
        } catch (IllegalArgumentException e) {
            throw notOurs(token);
        }
        var match = FORM.matcher(text);
        if (!match.matches()) {
            throw notOurs(token);
        }
        try {
            return new AsOfCursor(Long.parseLong(match.group(1)), match.group(2));
        } catch (NumberFormatException e) {
            throw notOurs(token);
        }
    }

    private static InvalidValueException notOurs(String token) {
        String shown = token.length() > 64 ? token.substring(0, 64) + "…" : token;
        return new InvalidValueException("'after' must be the 'next' token of a previous page, was '" + shown + "'");
    }
}

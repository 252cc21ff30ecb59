package io.dlqdesk.domain.record;

import io.dlqdesk.domain.InvalidValueException;
import java.util.Objects;

/**
 * The two rules for text that comes from outside (ARCHITECTURE §16). An identifier (a topic, a group, a header value the
 * desk matches on) is taken whole or not at all: cutting it would name something else. Free text (an exception message)
 * is kept up to its bound; the cut is marked, and the caller records the full value's length and hash.
 */
public final class BoundedText {

    static final String TRUNCATION_MARK = "…";

    private BoundedText() {
    }

    /**
     * Why {@code value} is no identifier of at most {@code max} characters (null, blank, too long or holding a control
     * character), or null when it is one. The answer names the length or the character's position, never the value.
     */
    public static String identifierProblem(String value, int max) {
        if (value == null) {
            return "missing";
        }
        if (value.isBlank()) {
            return "blank";
        }
        if (value.length() > max) {
            return value.length() + " characters, longer than " + max;
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (Character.isISOControl(c)) {
                return String.format("control character U+%04X at index %d", (int) c, i);
            }
        }
        return null;
    }

    /** {@code value}, when it is an identifier of at most {@code max} characters; otherwise the problem, naming {@code field}. */
    public static String requireIdentifier(String field, String value, int max) {
        String problem = identifierProblem(value, max);
        if (problem != null) {
            throw new InvalidValueException(field + ": " + problem);
        }
        return value;
    }

    /** The first {@code max} characters of {@code text} at most, unmarked (a value derived from it must stay the same), never splitting a surrogate pair. */
    public static String prefix(String text, int max) {
        Objects.requireNonNull(text, "text");
        if (text.length() <= max) {
            return text;
        }
        int end = Character.isLowSurrogate(text.charAt(max)) ? max - 1 : max;
        return text.substring(0, end);
    }

    /** The first {@code max} characters (mark included) of {@code text}, never splitting a surrogate pair. */
    public static String truncate(String text, int max) {
        Objects.requireNonNull(text, "text");
        if (text.length() <= max) {
            return text;
        }
        int end = max - TRUNCATION_MARK.length();
        if (Character.isLowSurrogate(text.charAt(end))) {
            end--;
        }
        return text.substring(0, end) + TRUNCATION_MARK;
    }
}

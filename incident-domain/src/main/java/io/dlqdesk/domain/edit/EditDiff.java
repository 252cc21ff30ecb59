package io.dlqdesk.domain.edit;

import io.dlqdesk.domain.InvalidValueException;

import java.util.List;
import java.util.Objects;

/**
 * Everything an edit changes in the source record, stored on the edit's event: the value's changes (JSON paths for a JSON
 * value, one range of text or bytes otherwise) and the headers' changes. Full, never truncated, so it is bounded as a
 * whole: an edit whose diff is larger is refused, not cut.
 *
 * @param valueKind how the value was compared
 */
public record EditDiff(Kind valueKind, List<Change> value, List<Change> headers) {

    /** The events topic keeps records up to 1 MB: at most 3 bytes of UTF-8 a character, the diff stays under 600 KB. */
    public static final int MAX_CHARS = 200_000;
    public static final int MAX_AT_LENGTH = 1_000;

    /** How the value's before and after are written: JSON text at JSON Pointer paths, UTF-8 text, or hex. */
    public enum Kind { JSON, TEXT, BYTES }

    /**
     * One change: where ({@code at}: a JSON Pointer, a {@code chars a..b} or {@code bytes a..b} range, a header's name and
     * position), what was there ({@code before}, null when added) and what is there now ({@code after}, null when removed).
     */
    public record Change(String at, String before, String after) {

        public Change {
            Objects.requireNonNull(at, "at");
            if (at.length() > MAX_AT_LENGTH) {
                throw new InvalidValueException("a diff position is at most " + MAX_AT_LENGTH + " characters");
            }
            if (before == null && after == null) {
                throw new InvalidValueException("a change at " + at + " has neither a before nor an after");
            }
        }

        int chars() {
            return at.length() + (before == null ? 0 : before.length()) + (after == null ? 0 : after.length());
        }
    }

    public EditDiff {
        Objects.requireNonNull(valueKind, "valueKind");
        value = List.copyOf(value);
        headers = List.copyOf(headers);
        long chars = value.stream().mapToLong(Change::chars).sum() + headers.stream().mapToLong(Change::chars).sum();
        if (chars > MAX_CHARS) {
            throw new InvalidValueException("the edit's diff is " + chars + " characters, more than " + MAX_CHARS
                    + ": edit fewer parts of the record at a time");
        }
    }

    /** Nothing differs from the source record. */
    public boolean changesNothing() {
        return value.isEmpty() && headers.isEmpty();
    }
}

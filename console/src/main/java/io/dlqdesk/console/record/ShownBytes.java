package io.dlqdesk.console.record;

/**
 * Bytes of a record as a page shows them: {@code kind} says how, {@code shown} is the text to put on the page (escaped
 * there like any text), {@code size} the full size in bytes, {@code truncated} whether only the start is shown.
 */
public record ShownBytes(Kind kind, String shown, long size, boolean truncated) {

    public enum Kind {
        /** Null (no key, a tombstone value). */
        NONE,
        /** Valid UTF-8 without control characters other than tab and line breaks. */
        TEXT,
        /** Text that parsed as JSON, pretty-printed. */
        JSON,
        /** Anything else, as hex, 16 bytes a line. */
        HEX
    }

    public static final ShownBytes NONE = new ShownBytes(Kind.NONE, "", 0, false);
}

package io.dlqdesk.domain;

/**
 * How deep any list of the desk may be read, by either front door or any query: {@code page × size} at most
 * {@value #MAX_OFFSET} rows in, {@code size} 1–{@value #MAX_SIZE}. An offset beyond it is a 400 before any query runs (a deep OFFSET costs the database the rows it skips, and
 * {@code page × size} must not overflow); narrow the filters instead.
 */
public final class PageBounds {

    public static final int MAX_SIZE = 500;
    public static final long MAX_OFFSET = 100_000;

    private PageBounds() {
    }

    public static void require(int page, int size) {
        if (page < 0) {
            throw new InvalidValueException("page must be >= 0, was " + page);
        }
        if (size < 1 || size > MAX_SIZE) {
            throw new InvalidValueException("size must be between 1 and " + MAX_SIZE + ", was " + size);
        }
        if ((long) page * size > MAX_OFFSET) {
            throw new InvalidValueException("page × size must be at most " + MAX_OFFSET + " (was " + page + " × " + size
                    + "): narrow the filters instead of paging this deep");
        }
    }
}

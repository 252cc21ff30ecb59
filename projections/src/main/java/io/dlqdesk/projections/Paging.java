package io.dlqdesk.projections;

import io.dlqdesk.domain.InvalidValueException;
/** The paging rule every list query of the read models follows: pages from 0, 1 to {@value #MAX_SIZE} items each. */
public final class Paging {

    public static final int MAX_SIZE = 500;

    private Paging() {
    }

    public static void requireValid(int page, int size) {
        if (page < 0) {
            throw new InvalidValueException("page must be >= 0, was " + page);
        }
        if (size < 1 || size > MAX_SIZE) {
            throw new InvalidValueException("size must be between 1 and " + MAX_SIZE + ", was " + size);
        }
    }
}

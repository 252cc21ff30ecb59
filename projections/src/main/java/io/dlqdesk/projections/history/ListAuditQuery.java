package io.dlqdesk.projections.history;

import java.time.Instant;

/**
 * Operator actions on incidents (who, what, why, when), newest first; null filters match everything,
 * {@code from} inclusive, {@code to} exclusive. Answered with an {@link AuditPage}.
 */
public record ListAuditQuery(String principal, Instant from, Instant to, int page, int size) {

    public static final int MAX_SIZE = 500;

    public ListAuditQuery {
        if (page < 0) {
            throw new IllegalArgumentException("page must be >= 0, was " + page);
        }
        if (size < 1 || size > MAX_SIZE) {
            throw new IllegalArgumentException("size must be between 1 and " + MAX_SIZE + ", was " + size);
        }
        if (from != null && to != null && !from.isBefore(to)) {
            throw new IllegalArgumentException("from must be before to");
        }
    }
}

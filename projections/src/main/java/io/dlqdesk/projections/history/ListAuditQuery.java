package io.dlqdesk.projections.history;

import io.dlqdesk.domain.InvalidValueException;
import io.dlqdesk.domain.PageBounds;

import java.time.Instant;

/**
 * Operator actions on incidents (who, what, why, when), newest first; null filters match everything,
 * {@code from} inclusive, {@code to} exclusive. Answered with an {@link AuditPage}.
 */
public record ListAuditQuery(String principal, Instant from, Instant to, int page, int size) {

    public ListAuditQuery {
        PageBounds.require(page, size);
        if (from != null && to != null && !from.isBefore(to)) {
            throw new InvalidValueException("from must be before to");
        }
    }
}

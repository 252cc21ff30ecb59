package io.dlqdesk.projections.history;

import io.dlqdesk.domain.InvalidValueException;
import io.dlqdesk.projections.Paging;

import java.time.Instant;

/**
 * Operator actions on incidents (who, what, why, when), newest first; null filters match everything,
 * {@code from} inclusive, {@code to} exclusive. Answered with an {@link AuditPage}.
 */
public record ListAuditQuery(String principal, Instant from, Instant to, int page, int size) {

    public ListAuditQuery {
        Paging.requireValid(page, size);
        if (from != null && to != null && !from.isBefore(to)) {
            throw new InvalidValueException("from must be before to");
        }
    }
}

package io.dlqdesk.replay.outbox;

import io.dlqdesk.domain.api.PublishResult;
import io.dlqdesk.domain.api.RecordLocation;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * What a poller round decided for one claimed row: SENT where the broker acknowledged, FAILED for good, or a
 * failed try that makes the row due again after {@code retryAfter}. A round writes all of them with one
 * decision time.
 */
public record RowDecision(OutboxRow row, OutboxRow.Status status, RecordLocation publishedAt, String reason, Long endOffsetAtDecision,
                          Duration retryAfter) {

    public static RowDecision sent(OutboxRow row, RecordLocation at) {
        return new RowDecision(row, OutboxRow.Status.SENT, at, null, null, null);
    }

    /** @param endOffsetAtDecision the target partition's end read for this decision; null when it could not be read */
    public static RowDecision failed(OutboxRow row, String reason, Long endOffsetAtDecision) {
        return new RowDecision(row, OutboxRow.Status.FAILED, null, ReplayOutbox.reasonAsStored(reason), endOffsetAtDecision, null);
    }

    public static RowDecision retryLater(OutboxRow row, String reason, Duration backoff) {
        return new RowDecision(row, OutboxRow.Status.PENDING, null, ReplayOutbox.reasonAsStored(reason), null, backoff);
    }

    /** The result exactly as the row will read back once written at {@code decidedAt}; empty for a try to repeat. */
    public Optional<PublishResult> result(Instant decidedAt) {
        return switch (status) {
            case SENT -> Optional.of(PublishResult.published(publishedAt, decidedAt));
            case FAILED -> Optional.of(PublishResult.failed(reason, decidedAt, endOffsetAtDecision));
            case PENDING, ABANDONED -> Optional.empty();
        };
    }
}

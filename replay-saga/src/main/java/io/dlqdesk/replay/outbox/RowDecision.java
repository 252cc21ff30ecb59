package io.dlqdesk.replay.outbox;

import io.dlqdesk.domain.record.RecordLocation;
import io.dlqdesk.domain.replay.PublishResult;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * What a poller round decided for one claimed row: {@link Sent} where the broker acknowledged, {@link Failed} for
 * good, or {@link Deferred}: a failed try that makes the row due again later. A round writes all of them with one
 * decision time. {@link RowDecider} makes them.
 */
public sealed interface RowDecision {

    OutboxRow row();

    /** The result exactly as the row will read back once written at {@code decidedAt}; empty for a try to repeat. */
    Optional<PublishResult> result(Instant decidedAt);

    /** The broker acknowledged the replay; it landed {@code at}. */
    record Sent(OutboxRow row, RecordLocation at) implements RowDecision {

        @Override
        public Optional<PublishResult> result(Instant decidedAt) {
            return Optional.of(PublishResult.published(at, decidedAt));
        }
    }

    /**
     * FAILED for good.
     *
     * @param outOfTries          its last try failed (rather than: retrying could not help, or its deadline passed)
     * @param endOffsetAtDecision the target partition's end read for this decision; null until read, or when it could not be
     */
    record Failed(OutboxRow row, String reason, boolean outOfTries, Long endOffsetAtDecision) implements RowDecision {

        public Failed {
            reason = ReplayOutbox.reasonAsStored(reason);
        }

        public Failed withEndOffset(Long endOffset) {
            return new Failed(row, reason, outOfTries, endOffset);
        }

        @Override
        public Optional<PublishResult> result(Instant decidedAt) {
            return Optional.of(PublishResult.failed(reason, decidedAt, endOffsetAtDecision));
        }
    }

    /** A failed try with tries left: the row stays PENDING and is due again {@code retryAfter} after the decision. */
    record Deferred(OutboxRow row, String reason, Duration retryAfter) implements RowDecision {

        public Deferred {
            reason = ReplayOutbox.reasonAsStored(reason);
        }

        /** Which try of the row this was. */
        public int tryNumber() {
            return row.tries() + 1;
        }

        @Override
        public Optional<PublishResult> result(Instant decidedAt) {
            return Optional.empty();
        }
    }
}

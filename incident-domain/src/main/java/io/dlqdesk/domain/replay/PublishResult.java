package io.dlqdesk.domain.replay;

import io.dlqdesk.domain.InvalidValueException;
import io.dlqdesk.domain.record.RecordLocation;
import java.time.Instant;
import java.util.Objects;

/**
 * The outcome of publishing a replay, decided by the outbox poller: PUBLISHED with the location the
 * broker gave it, or PUBLISH_FAILED with a reason. A failed one may still have gone out (a timed-out
 * send can land), so it carries the target partition's end offset when it was decided:
 * any replay of it lies below that offset. {@code decidedAt} is the poller's decision time.
 *
 * @param endOffsetAtDecision PUBLISH_FAILED only: the end offset (high-water mark) of the original
 *                            topic-partition read when the attempt was decided; null when it could not be
 *                            read, and in results stored before it was recorded (read as "unknown")
 */
public record PublishResult(PublishStatus status, RecordLocation publishedAt, String failureReason, Instant decidedAt,
                            Long endOffsetAtDecision) {

    public static final int MAX_REASON_LENGTH = 2000;

    public PublishResult {
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(decidedAt, "decidedAt");
        switch (status) {
            case PUBLISHED -> {
                Objects.requireNonNull(publishedAt, "publishedAt");
                if (failureReason != null) {
                    throw new InvalidValueException("a published record has no failure reason");
                }
                if (endOffsetAtDecision != null) {
                    throw new InvalidValueException("a published record has its location, not an end offset");
                }
            }
            case PUBLISH_FAILED -> {
                Objects.requireNonNull(failureReason, "failureReason");
                if (failureReason.isBlank() || failureReason.length() > MAX_REASON_LENGTH) {
                    throw new InvalidValueException("failureReason must be 1.." + MAX_REASON_LENGTH + " non-blank characters");
                }
                if (publishedAt != null) {
                    throw new InvalidValueException("a failed publish has no location");
                }
                if (endOffsetAtDecision != null && endOffsetAtDecision < 0) {
                    throw new InvalidValueException("an end offset is not negative, was " + endOffsetAtDecision);
                }
            }
            default -> throw new InvalidValueException("a publish result is PUBLISHED or PUBLISH_FAILED, not " + status);
        }
    }

    /** A result without an end offset (PUBLISHED, or a failure whose end offset is unknown). */
    public PublishResult(PublishStatus status, RecordLocation publishedAt, String failureReason, Instant decidedAt) {
        this(status, publishedAt, failureReason, decidedAt, null);
    }

    public static PublishResult published(RecordLocation publishedAt, Instant decidedAt) {
        return new PublishResult(PublishStatus.PUBLISHED, publishedAt, null, decidedAt, null);
    }

    /** A failure whose target partition's end offset could not be read: the rollback check treats it as never consumed. */
    public static PublishResult failed(String failureReason, Instant decidedAt) {
        return failed(failureReason, decidedAt, null);
    }

    public static PublishResult failed(String failureReason, Instant decidedAt, Long endOffsetAtDecision) {
        return new PublishResult(PublishStatus.PUBLISH_FAILED, null, failureReason, decidedAt, endOffsetAtDecision);
    }
}

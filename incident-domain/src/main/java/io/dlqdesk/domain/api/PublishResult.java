package io.dlqdesk.domain.api;

import java.time.Instant;
import java.util.Objects;

/**
 * The outcome of publishing a replay, decided by the outbox poller: PUBLISHED with the location the
 * broker gave it, or PUBLISH_FAILED with a reason (the record may still have gone out: a failure
 * after the broker's ack looks the same). {@code decidedAt} is the poller's decision time.
 */
public record PublishResult(PublishStatus status, RecordLocation publishedAt, String failureReason, Instant decidedAt) {

    public static final int MAX_REASON_LENGTH = 2000;

    public PublishResult {
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(decidedAt, "decidedAt");
        switch (status) {
            case PUBLISHED -> {
                Objects.requireNonNull(publishedAt, "publishedAt");
                if (failureReason != null) {
                    throw new IllegalArgumentException("a published record has no failure reason");
                }
            }
            case PUBLISH_FAILED -> {
                Objects.requireNonNull(failureReason, "failureReason");
                if (failureReason.isBlank() || failureReason.length() > MAX_REASON_LENGTH) {
                    throw new IllegalArgumentException("failureReason must be 1.." + MAX_REASON_LENGTH + " non-blank characters");
                }
                if (publishedAt != null) {
                    throw new IllegalArgumentException("a failed publish has no location");
                }
            }
            default -> throw new IllegalArgumentException("a publish result is PUBLISHED or PUBLISH_FAILED, not " + status);
        }
    }

    public static PublishResult published(RecordLocation publishedAt, Instant decidedAt) {
        return new PublishResult(PublishStatus.PUBLISHED, publishedAt, null, decidedAt);
    }

    public static PublishResult failed(String failureReason, Instant decidedAt) {
        return new PublishResult(PublishStatus.PUBLISH_FAILED, null, failureReason, decidedAt);
    }
}

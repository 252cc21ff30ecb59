package io.dlqdesk.projections.readiness;

import java.time.Instant;
import java.util.List;

/**
 * @param requestedAttempts    attempts whose publish status is still REQUESTED
 * @param lastDecisionAt       the latest publish decision time (PUBLISHED, PUBLISH_FAILED, or the time an attempt was marked
 *                             PUBLISH_UNKNOWN); null if none
 * @param published            per target group and partition, the highest offset a replay was published at
 * @param maybePublished       per target group and partition, the PUBLISH_FAILED and PUBLISH_UNKNOWN attempts: they may
 *                             have gone out all the same, below the partition's end offset when they were decided
 * @param decidedBeforeHorizon decided attempts left out of {@code published} and {@code maybePublished} because they were
 *                             decided before the horizon
 * @param activeJobs           replay jobs RUNNING or PAUSED: they may still request replays
 */
public record RollbackFacts(long requestedAttempts, Instant lastDecisionAt, List<PublishedPosition> published,
                            List<MaybePublishedPosition> maybePublished, long decidedBeforeHorizon, List<ActiveJob> activeJobs) {

    public RollbackFacts {
        published = List.copyOf(published);
        maybePublished = List.copyOf(maybePublished);
        activeJobs = List.copyOf(activeJobs);
    }

    /** Without replay jobs. */
    public RollbackFacts(long requestedAttempts, Instant lastDecisionAt, List<PublishedPosition> published,
                         List<MaybePublishedPosition> maybePublished, long decidedBeforeHorizon) {
        this(requestedAttempts, lastDecisionAt, published, maybePublished, decidedBeforeHorizon, List.of());
    }

    /** A replay job with work left: RUNNING or PAUSED. */
    public record ActiveJob(String jobId, String status) {
    }

    /** Facts without attempts that may have gone out unconfirmed, and none left out by the horizon. */
    public RollbackFacts(long requestedAttempts, Instant lastDecisionAt, List<PublishedPosition> published) {
        this(requestedAttempts, lastDecisionAt, published, List.of(), 0);
    }

    /** Replays for {@code targetGroup} reached {@code topic}/{@code partition} up to {@code highestOffset}. */
    public record PublishedPosition(String targetGroup, String topic, int partition, long highestOffset) {
    }

    /**
     * {@code attempts} PUBLISH_FAILED or PUBLISH_UNKNOWN attempts for {@code targetGroup} targeted {@code topic}/{@code partition};
     * any of them that went out lies below {@code highestEndOffset}, the highest end offset recorded when they were decided.
     * {@code withoutEndOffset} of them have none recorded (it could not be read, or they predate it): where they could
     * lie is unknown, so they can never be shown consumed (fail closed).
     *
     * @param highestEndOffset null when none of them has an end offset
     */
    public record MaybePublishedPosition(String targetGroup, String topic, int partition, long attempts, Long highestEndOffset,
                                         long withoutEndOffset) {
    }
}

package io.dlqdesk.projections.readiness;

import java.time.Instant;
import java.util.List;

/**
 * What the rollback check reads from the rollback-facts read model: every replay attempt whose consumption it still waits
 * for, however long ago it was decided (there is no horizon: a replay nobody consumed holds it until an admin waives it).
 *
 * @param waivedAttempts decided attempts an admin waived ({@code ReplayConsumptionWaived}): left out of {@code published} and
 *                       {@code maybePublished}; {@code recentWaivers} are the newest of them, shown in the answer
 */
public record RollbackFacts(long requestedAttempts, Instant lastDecisionAt, List<PublishedPosition> published,
                            List<MaybePublishedPosition> maybePublished, long waivedAttempts, List<ActiveJob> activeJobs,
                            List<Waiver> recentWaivers) {

    public RollbackFacts {
        published = List.copyOf(published);
        maybePublished = List.copyOf(maybePublished);
        activeJobs = List.copyOf(activeJobs);
        recentWaivers = List.copyOf(recentWaivers);
    }

    /** Without waivers listed. */
    public RollbackFacts(long requestedAttempts, Instant lastDecisionAt, List<PublishedPosition> published,
                         List<MaybePublishedPosition> maybePublished, long waivedAttempts, List<ActiveJob> activeJobs) {
        this(requestedAttempts, lastDecisionAt, published, maybePublished, waivedAttempts, activeJobs, List.of());
    }

    /** Without replay jobs. */
    public RollbackFacts(long requestedAttempts, Instant lastDecisionAt, List<PublishedPosition> published,
                         List<MaybePublishedPosition> maybePublished, long waivedAttempts) {
        this(requestedAttempts, lastDecisionAt, published, maybePublished, waivedAttempts, List.of());
    }

    /** A replay job with work left: RUNNING or PAUSED. */
    public record ActiveJob(String jobId, String status) {
    }

    /** An admin's waiver of one attempt's consumption: who, why, when. */
    public record Waiver(String incidentId, int attempt, String waivedBy, String reason, Instant waivedAt) {
    }

    /** Facts without attempts that may have gone out unconfirmed, and none waived. */
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
     * lie is unknown, so they can never be shown consumed (fail closed) until an admin waives them.
     *
     * @param highestEndOffset null when none of them has an end offset
     */
    public record MaybePublishedPosition(String targetGroup, String topic, int partition, long attempts, Long highestEndOffset,
                                         long withoutEndOffset) {
    }
}

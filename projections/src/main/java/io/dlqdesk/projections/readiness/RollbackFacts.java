package io.dlqdesk.projections.readiness;

import java.time.Instant;
import java.util.List;

/**
 * @param requestedAttempts attempts whose publish status is still REQUESTED
 * @param lastDecisionAt    the latest publish decision time (PUBLISHED, PUBLISH_FAILED, or the time an attempt was marked
 *                          PUBLISH_UNKNOWN); null if none
 * @param published         per target group and partition, the highest offset a replay was published at
 */
public record RollbackFacts(long requestedAttempts, Instant lastDecisionAt, List<PublishedPosition> published) {

    /** Replays for {@code targetGroup} reached {@code topic}/{@code partition} up to {@code highestOffset}. */
    public record PublishedPosition(String targetGroup, String topic, int partition, long highestOffset) {
    }
}

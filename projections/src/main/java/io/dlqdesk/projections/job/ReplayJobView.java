package io.dlqdesk.projections.job;

import io.dlqdesk.domain.job.ReplayJobPauseReason;
import io.dlqdesk.domain.job.ReplayJobStatus;

import java.time.Instant;
import java.util.Map;

/**
 * A replay job as operators see it. {@code selected} = {@code requested} + {@code refused} + {@code remaining};
 * {@code published} + {@code publishFailed} + {@code publishUnknown} never exceed {@code requested} (the rest are in flight);
 * {@code refailed} counts requested replays that came back as correlated re-failures. {@code eta}: when the remaining
 * incidents will have been asked at the job's rate, while it runs and moves (null otherwise). {@code stalledSince}: a RUNNING
 * job in which nothing moved (no answer, publish result or re-failure) for a minute, since when: it has no ETA then (its
 * replays in flight are not being decided, or the replay switch is off). {@code approval}: who approved a job that waited
 * AWAITING_APPROVAL for a second person, and why (null for a job that needed none, or is not approved yet).
 */
public record ReplayJobView(String jobId, String selection, ReplayJobStatus status, ReplayJobPauseReason pauseReason, String createdBy,
                            String reason, Instant createdAt, Instant updatedAt, Limits limits, Progress progress, Instant eta,
                            Instant stalledSince, Approval approval) {

    /** The second person's approval (four-eyes). */
    public record Approval(String approvedBy, String reason, Instant at) {
    }

    public record Limits(int ratePerSecond, int maxInFlight, Integer canary, Double maxRefailureRate) {
    }

    /** @param refusedBy incidents refused per refusal code (one incident can be refused for several) */
    public record Progress(int selected, int requested, int refused, Map<String, Integer> refusedBy, int published, int publishFailed,
                           int publishUnknown, int refailed, int remaining) {
    }
}

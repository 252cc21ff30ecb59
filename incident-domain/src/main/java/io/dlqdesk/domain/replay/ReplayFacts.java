package io.dlqdesk.domain.replay;

import io.dlqdesk.domain.incident.IncidentStatus;
import io.dlqdesk.domain.record.EventId;
import io.dlqdesk.domain.record.FailedRecord;
import io.dlqdesk.domain.record.OriginalTimestamp;
import io.dlqdesk.domain.record.PayloadHash;
import io.dlqdesk.domain.record.RecordKey;
import io.dlqdesk.domain.record.RecordLocation;

import java.time.Instant;
import java.util.Objects;

/**
 * Everything the replay conditions decide from: what the incident recorded (nullable where a DLQ
 * record may lack it), the state of its attempts, and what the request brought.
 *
 * @param attemptRequested any attempt of the incident is still REQUESTED
 * @param claimedStatus    publish status of the claimed failure's latest attempt (NONE if it has none)
 */
public record ReplayFacts(
        IncidentStatus status,
        EventId eventId,
        String failedGroup,
        RecordLocation originalLocation,
        RecordKey key,
        PayloadHash valueHash,
        OriginalTimestamp originalTimestamp,
        Instant replayDeadline,
        int attemptsSoFar,
        boolean attemptRequested,
        PublishStatus claimedStatus,
        SourceRecordFacts source,
        ReplayPolicy policy,
        boolean switchOn,
        Instant now,
        KeyFreshness keyFreshness,
        boolean staleKeyOverridden,
        RequestedEdit edit) {

    /** The edit a request names, as the incident knows it: none (the source record as it is), approved, not yet, or no such edit. */
    public enum RequestedEdit { NONE, APPROVED, NOT_APPROVED, UNKNOWN }

    public ReplayFacts {
        // what the incident and the request always know; only recorded record facts may be missing
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(claimedStatus, "claimedStatus");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(now, "now");
        Objects.requireNonNull(keyFreshness, "keyFreshness");
        Objects.requireNonNull(edit, "edit");
    }

    /**
     * What the incident knows of its attempts.
     *
     * @param count         attempts made so far
     * @param anyRequested  any of them is still REQUESTED
     * @param claimedStatus publish status of the claimed failure's latest attempt (NONE if it has none)
     */
    public record AttemptsSoFar(int count, boolean anyRequested, PublishStatus claimedStatus) {
    }

    /**
     * The facts for a request about an incident whose first failure is {@code root}: grouped by where they come from,
     * so that the fifteen components cannot be passed in each other's place. The recorded location counts only when
     * the DLQ record named it.
     */
    public static ReplayFacts of(IncidentStatus status, FailedRecord root, Instant replayDeadline, AttemptsSoFar attempts,
                                 RequestReplayCommand request, RequestedEdit edit) {
        RecordLocation original = root.originalLocationKnown() ? root.failureKey().location() : null;
        return new ReplayFacts(status, root.eventId(), root.failureKey().consumerGroup(), original, root.key(), root.valueHash(),
                root.originalTimestamp(), replayDeadline, attempts.count(), attempts.anyRequested(), attempts.claimedStatus(),
                request.source(), request.policy(), request.switchOn(), request.requestedBy().at(), request.keyFreshness(),
                request.overrideStaleKey(), edit);
    }
}

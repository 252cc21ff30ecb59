package io.dlqdesk.domain.replay;

import io.dlqdesk.domain.api.EventId;
import io.dlqdesk.domain.api.IncidentStatus;
import io.dlqdesk.domain.api.OriginalTimestamp;
import io.dlqdesk.domain.api.PayloadHash;
import io.dlqdesk.domain.api.PublishStatus;
import io.dlqdesk.domain.api.RecordKey;
import io.dlqdesk.domain.api.RecordLocation;
import io.dlqdesk.domain.api.ReplayPolicy;
import io.dlqdesk.domain.api.SourceRecordFacts;

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
        Instant now) {

    public ReplayFacts {
        // what the incident and the request always know; only recorded record facts may be missing
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(claimedStatus, "claimedStatus");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(now, "now");
    }
}

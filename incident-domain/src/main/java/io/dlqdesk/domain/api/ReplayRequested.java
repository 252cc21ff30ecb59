package io.dlqdesk.domain.api;

import io.dlqdesk.domain.edit.AppliedEdit;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.OperatorAction;
import io.dlqdesk.domain.record.EventId;
import io.dlqdesk.domain.replay.KeyFreshness;
import io.dlqdesk.domain.record.FailedRecord;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.domain.record.OriginalTimestamp;
import io.dlqdesk.domain.record.PayloadHash;
import io.dlqdesk.domain.record.RecordKey;
import io.dlqdesk.domain.record.RecordLocation;
import java.time.Instant;

/**
 * A replay attempt was accepted; its publish status is REQUESTED. Carries everything the replay
 * saga needs to publish and everything correlation needs later: the claimed failure (whose row
 * the publish status belongs to), where to re-read the record and what it must still be, and the
 * four correlation header values (root = {@code incidentId}, {@code attempt}, {@code owner},
 * {@code targetGroup}). {@code keyFreshness} is what the staleness check found and {@code staleKeyOverridden} whether the
 * operator replayed over a STALE_KEY or KEY_FRESHNESS_UNKNOWN (null and false in events stored before the check existed).
 * {@code edit} is the approved edit published instead of the record's value and headers (null: the record as it is);
 * {@code valueHash} stays the source record's, which the publisher checks before it sends.
 */
public record ReplayRequested(
        IncidentId incidentId,
        int attempt,
        FailureKey claimedFailure,
        RecordLocation sourceLocation,
        String targetGroup,
        RecordKey key,
        EventId eventId,
        PayloadHash valueHash,
        OriginalTimestamp originalTimestamp,
        Instant replayDeadline,
        String owner,
        OperatorAction requestedBy,
        KeyFreshness keyFreshness,
        boolean staleKeyOverridden,
        AppliedEdit edit) {

    public ReplayRequested(IncidentId incidentId, int attempt, FailureKey claimedFailure, RecordLocation sourceLocation, String targetGroup,
                           RecordKey key, EventId eventId, PayloadHash valueHash, OriginalTimestamp originalTimestamp, Instant replayDeadline,
                           String owner, OperatorAction requestedBy) {
        this(incidentId, attempt, claimedFailure, sourceLocation, targetGroup, key, eventId, valueHash, originalTimestamp, replayDeadline,
                owner, requestedBy, null, false, null);
    }

    public ReplayRequested(IncidentId incidentId, int attempt, FailureKey claimedFailure, RecordLocation sourceLocation, String targetGroup,
                           RecordKey key, EventId eventId, PayloadHash valueHash, OriginalTimestamp originalTimestamp, Instant replayDeadline,
                           String owner, OperatorAction requestedBy, KeyFreshness keyFreshness, boolean staleKeyOverridden) {
        this(incidentId, attempt, claimedFailure, sourceLocation, targetGroup, key, eventId, valueHash, originalTimestamp, replayDeadline,
                owner, requestedBy, keyFreshness, staleKeyOverridden, null);
    }

    /**
     * The attempt to replay the incident's root failure: the record facts all come from {@code root}, so no two
     * parameters share a type and none can be passed in the other's place (the components are the stored form).
     *
     * @param owner this ledger's name, sent in the correlation headers
     */
    public static ReplayRequested of(IncidentId incidentId, int attempt, FailureKey claimedFailure, FailedRecord root,
                                     Instant replayDeadline, String owner, OperatorAction requestedBy, KeyFreshness keyFreshness,
                                     boolean staleKeyOverridden, AppliedEdit edit) {
        FailureKey rootKey = root.failureKey();
        return new ReplayRequested(incidentId, attempt, claimedFailure, rootKey.location(), rootKey.consumerGroup(), root.key(),
                root.eventId(), root.valueHash(), root.originalTimestamp(), replayDeadline, owner, requestedBy, keyFreshness, staleKeyOverridden,
                edit);
    }

    /** The attempt of a request the stale-key check did not cover. */
    public static ReplayRequested of(IncidentId incidentId, int attempt, FailureKey claimedFailure, FailedRecord root,
                                     Instant replayDeadline, String owner, OperatorAction requestedBy) {
        return of(incidentId, attempt, claimedFailure, root, replayDeadline, owner, requestedBy, null, false, null);
    }

    /** The SHA-256 of the value this attempt publishes, which its re-failure must carry: the edit's, else the source record's. */
    public PayloadHash publishedValueHash() {
        return edit == null ? valueHash : edit.valueHash();
    }

    /** The replay saga's association key; derived, so not part of the stored form. */
    public String replayId() {
        return incidentId.replayId(attempt);
    }
}

package io.dlqdesk.replay.outbox;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.record.PayloadHash;
import io.dlqdesk.domain.record.RecordKey;
import io.dlqdesk.domain.record.RecordLocation;
import io.dlqdesk.domain.replay.PublishResult;

import java.time.Instant;

/** One replay attempt to publish, as the outbox holds it; {@code editContentHash} names the approved edit it publishes (null: none). */
public record OutboxRow(
        String replayId,
        IncidentId incidentId,
        int attempt,
        RecordLocation source,
        RecordKey key,
        PayloadHash valueHash,
        String targetGroup,
        String owner,
        Status status,
        int tries,
        String lastError,
        RecordLocation publishedAt,
        Instant decidedAt,
        Long endOffsetAtDecision,
        PayloadHash editContentHash) {

    /** A row that publishes the source record as it is. */
    public OutboxRow(String replayId, IncidentId incidentId, int attempt, RecordLocation source, RecordKey key, PayloadHash valueHash,
                     String targetGroup, String owner, Status status, int tries, String lastError, RecordLocation publishedAt, Instant decidedAt,
                     Long endOffsetAtDecision) {
        this(replayId, incidentId, attempt, source, key, valueHash, targetGroup, owner, status, tries, lastError, publishedAt, decidedAt,
                endOffsetAtDecision, null);
    }

    public enum Status {
        /** Not decided yet: the poller publishes it when due. */
        PENDING,
        /** The broker acknowledged the record. */
        SENT,
        /** The last try failed; the target partition's end offset then is kept (null if it could not be read). */
        FAILED,
        /** Confirmed absent and marked PUBLISH_UNKNOWN by an admin: never published. */
        ABANDONED
    }

    /** The decided outcome as the aggregate records it; empty while PENDING. */
    public java.util.Optional<PublishResult> result() {
        return switch (status) {
            case PENDING, ABANDONED -> java.util.Optional.empty();
            case SENT -> java.util.Optional.of(PublishResult.published(publishedAt, decidedAt));
            case FAILED -> java.util.Optional.of(PublishResult.failed(lastError, decidedAt, endOffsetAtDecision));
        };
    }
}

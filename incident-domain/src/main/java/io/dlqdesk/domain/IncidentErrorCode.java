package io.dlqdesk.domain;

/** Stable codes of refused commands (replay refusals are events instead: see ReplayRefusal). */
public enum IncidentErrorCode {
    /** Acknowledge needs an OPEN incident. */
    NOT_OPEN,
    /** Resolve and discard need an ACKED incident. */
    NOT_ACKNOWLEDGED,
    /** Closing is refused while an attempt is REQUESTED; PUBLISH_UNKNOWN exists to end that. */
    REPLAY_IN_FLIGHT,
    /** No replay attempt with that number. */
    UNKNOWN_ATTEMPT,
    /** The attempt's publish status was already decided differently (or marked unknown). */
    PUBLISH_ALREADY_DECIDED,
    /** Only a REQUESTED attempt can be marked PUBLISH_UNKNOWN. */
    PUBLISH_NOT_REQUESTED,
    /** PUBLISH_UNKNOWN needs the outbox row confirmed absent. */
    OUTBOX_ROW_NOT_CONFIRMED_ABSENT,
    /** The re-failure failed correlation; the caller opens a separate incident with the mismatches. */
    RETRY_FAILURE_NOT_CORRELATED,
    /** The failure key is already recorded with other content; the caller opens the record keyed by its DLQ record. */
    FAILURE_KEY_TAKEN,
    /** Only a decided attempt (PUBLISHED, PUBLISH_FAILED, PUBLISH_UNKNOWN) can have its consumption waived. */
    ATTEMPT_NOT_DECIDED,
    /** The attempt's consumption was waived already. */
    ALREADY_WAIVED,
    /** An edit's value and headers are those of the source record: there is nothing to approve. */
    EDIT_CHANGES_NOTHING,
    /** An edit may not change the record's event id: consumers would not deduplicate it, nor would its re-failure correlate. */
    EDIT_CHANGES_EVENT_ID,
    /** The incident has the maximum number of edits. */
    TOO_MANY_EDITS,
    /** No edit with that number. */
    UNKNOWN_EDIT,
    /** The edit was approved already. */
    EDIT_ALREADY_APPROVED,
    /** Four-eyes: the proposer of an edit cannot approve it. */
    APPROVER_IS_PROPOSER,
    /** A RESOLVED or DISCARDED incident takes no edits. */
    INCIDENT_CLOSED,
    /** The source record an edit would change is gone from its topic (deleted, compacted) or a tombstone: nothing to edit. */
    EDIT_SOURCE_GONE
}

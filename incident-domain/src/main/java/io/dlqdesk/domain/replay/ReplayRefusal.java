package io.dlqdesk.domain.replay;

/**
 * Stable codes of the replay conditions that can fail; a {@link ReplayRejected} lists every one
 * that did. Stored in events and shown to operators: never rename or reuse a code.
 */
public enum ReplayRefusal {
    /** 1. The incident's record has no eventId: consumers could not deduplicate the replay. */
    EVENT_ID_UNKNOWN,
    /** 2. The failing consumer group is not known. */
    FAILED_GROUP_UNKNOWN,
    /** 3. The original location is not known. */
    LOCATION_UNKNOWN,
    /** 4. Topic or partition does not exist, or the offset is outside the log's current range. */
    LOCATION_INVALID,
    /** 5. The topic's replay policy does not allow replay. */
    TOPIC_NOT_ALLOWED,
    /** 6. The original timestamp is not known (so there is no replay deadline either). */
    ORIGINAL_TIMESTAMP_UNKNOWN,
    /** 7. Now is not before the replay deadline, or there is no deadline: fail closed. */
    AFTER_DEADLINE,
    /** 8. Nothing came back from the recorded location. */
    SOURCE_RECORD_NOT_FOUND,
    /** 8. The facts were read somewhere other than the recorded location. */
    SOURCE_LOCATION_MISMATCH,
    /** 8. A different offset came back (compaction returns the next record). */
    SOURCE_OFFSET_MISMATCH,
    /** 8. The key is not byte-identical. */
    SOURCE_KEY_MISMATCH,
    /** 8. The eventId differs. */
    SOURCE_EVENT_ID_MISMATCH,
    /** 8. The SHA-256 of the value differs from the recorded one (or none was recorded). */
    SOURCE_VALUE_HASH_MISMATCH,
    /** 8. The record is a tombstone: never replayable. */
    SOURCE_TOMBSTONE,
    /** The incident is RESOLVED or DISCARDED. */
    INCIDENT_CLOSED,
    /** An attempt of this incident is still REQUESTED: exactly one concurrent request wins. */
    REPLAY_ALREADY_REQUESTED,
    /** The claimed failure's last attempt was PUBLISHED and has not re-failed since. */
    ALREADY_PUBLISHED,
    /** The claimed failure's last attempt is PUBLISH_UNKNOWN: no replay from it. */
    PUBLISH_UNKNOWN,
    /** The runtime replay switch is off. */
    REPLAY_SWITCH_OFF,
    /** The incident has had the maximum number of replay attempts. */
    MAX_ATTEMPTS_REACHED,
    /**
     * 8. The record read back carries another timestamp than the DLQ record said: the DLQ header is not trusted
     * over the record itself (a forged "now" would open a window the record is long out of).
     */
    SOURCE_TIMESTAMP_MISMATCH,
    /** The source record's timestamp plus its topic's retention, read at replay time, has passed: the broker may delete it. */
    SOURCE_RETENTION_PASSED,
    /**
     * The target group has already processed a newer record with the same key (its committed offset lies past it): the
     * replay would write old data over newer state. Only for topics configured to be checked; an operator may override it.
     */
    STALE_KEY,
    /** The staleness check could not answer within its bounds (too many records to read, the broker not answering): fail closed. */
    KEY_FRESHNESS_UNKNOWN,
    /** The replay names an edit the incident does not have. */
    EDIT_UNKNOWN,
    /** The replay names an edit no second person has approved yet (four-eyes). */
    EDIT_NOT_APPROVED
}

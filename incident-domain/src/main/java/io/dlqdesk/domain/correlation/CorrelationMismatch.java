package io.dlqdesk.domain.correlation;

/**
 * Stable codes of the nine correlation checks (and of {@link #FAILURE_KEY_TAKEN}). A re-failure that fails any of them is not linked to
 * the incident it names; it opens its own incident, whose {@link IncidentOpened} lists them.
 * A missing or malformed header fails its check. Never rename or reuse a code.
 */
public enum CorrelationMismatch {
    /** 1. The attempt header is missing, malformed, or names no recorded attempt. */
    ATTEMPT_MISMATCH,
    /** 2. The owner header is not this deployment's ledger name. */
    OWNER_MISMATCH,
    /** 3. Actual failing group, target-group header and the attempt's recorded target group are not all equal. */
    TARGET_GROUP_MISMATCH,
    /** 4. The root header is not this incident's id. */
    ROOT_INCIDENT_MISMATCH,
    /** 5. The re-failed record's topic is not the incident's topic. */
    TOPIC_MISMATCH,
    /** 6. The eventId differs or is missing. */
    EVENT_ID_MISMATCH,
    /** 7. The key is not byte-identical. */
    KEY_MISMATCH,
    /** 8. The original timestamp (instant and type) differs or is missing. */
    ORIGINAL_TIMESTAMP_MISMATCH,
    /** 9. The SHA-256 of the full failing value is not the hash recorded at replay time. */
    VALUE_HASH_MISMATCH,
    /**
     * Not one of the nine: the record's failure key (original location and group) is already a
     * failure of the incident, recorded with other content (eventId, key, value hash, original
     * timestamp or replay headers). A redelivery is equal by content; this record cannot be that
     * failure, so it is kept as an incident of its own, keyed by its DLQ record.
     */
    FAILURE_KEY_TAKEN
}

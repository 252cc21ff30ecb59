package io.dlqdesk.domain.incident;

/**
 * What an incident made of a failure delivered to it, returned by the commands that record failures.
 * Reading a DLQ record again (ingest reads at least once) is an outcome, not an error and not a silent no-op.
 */
public enum FailureRecording {
    /** A new incident was opened for the failure. */
    OPENED,
    /** A re-failure of a replay, now one of the incident's failures. */
    CORRELATED,
    /** A failure the incident has, in another DLQ record (dead-lettered again): that record is counted. */
    DUPLICATE_DELIVERY,
    /** This very DLQ record was recorded before: nothing changes. */
    ALREADY_RECORDED
}

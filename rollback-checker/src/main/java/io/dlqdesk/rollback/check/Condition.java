package io.dlqdesk.rollback.check;

/** The five things that must all hold before a rollback, in the order they are reported. */
public enum Condition {
    /** No replay outbox row waits to be published. */
    NO_PENDING_REPLAY,
    /** No attempt is REQUESTED (its outcome unknown), read from a read model that has reached the event store's head. */
    NO_ATTEMPT_REQUESTED,
    /**
     * Every replay published (however long ago, unless an admin waived it) was consumed by its target group; every target group of an attempt that may
     * have gone out (PUBLISH_FAILED, PUBLISH_UNKNOWN) read up to the end offset recorded at its decision; the ingest group has
     * read the DLQ topics to their ends.
     */
    REPLAYS_CONSUMED,
    /** The last publish decision plus the retry bound lies in the past: no re-failure of a replay can still be on its way. */
    RETRY_BOUND_PASSED,
    /** No replay job is RUNNING, PAUSED or AWAITING_APPROVAL: it could still request replays. */
    NO_REPLAY_JOB_ACTIVE,
    /** No event is parked by the rollback-facts processor: the facts the other conditions read are whole. */
    ROLLBACK_FACTS_COMPLETE
}

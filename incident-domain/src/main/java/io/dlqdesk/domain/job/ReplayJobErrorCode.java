package io.dlqdesk.domain.job;

/** Stable codes of commands a replay job refused. */
public enum ReplayJobErrorCode {
    /** A job needs at least one incident. */
    EMPTY_SELECTION,
    /** The incident is not in the job's manifest. */
    NOT_IN_MANIFEST,
    /** The incident was claimed before: each is asked once. */
    ALREADY_CLAIMED,
    /** An answer is recorded only for a claimed incident. */
    NOT_CLAIMED,
    /** The attempt is not one the job requested. */
    NOT_A_JOB_ATTEMPT,
    /** Claiming and pausing need a RUNNING job. */
    NOT_RUNNING,
    /** Resume needs a PAUSED job. */
    NOT_PAUSED,
    /** Cancel needs a job with work left (AWAITING_APPROVAL, RUNNING or PAUSED). */
    ALREADY_ENDED,
    /** Approval needs a job AWAITING_APPROVAL. */
    NOT_AWAITING_APPROVAL,
    /** Four-eyes: whoever created the job cannot approve it. */
    APPROVER_IS_CREATOR
}

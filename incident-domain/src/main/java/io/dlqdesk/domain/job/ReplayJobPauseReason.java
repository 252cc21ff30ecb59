package io.dlqdesk.domain.job;

/** Why a replay job paused: an operator asked, or the job stopped itself. */
public enum ReplayJobPauseReason {
    OPERATOR,
    /** The canary's records were requested: an operator looks at them and resumes. */
    CANARY,
    /** Too many of the job's published replays failed again: the consumer is evidently still broken. */
    REFAILURE_RATE
}

package io.dlqdesk.domain.job;

/**
 * AWAITING_APPROVAL, RUNNING and PAUSED have work left (a job awaiting approval or paused may run at any moment); CANCELLED
 * and COMPLETED request nothing more (replays already requested still finish). Stored by name in columns of 24 characters.
 */
public enum ReplayJobStatus {
    RUNNING, PAUSED, CANCELLED, COMPLETED, AWAITING_APPROVAL;

    public boolean hasWorkLeft() {
        return this == RUNNING || this == PAUSED || this == AWAITING_APPROVAL;
    }
}

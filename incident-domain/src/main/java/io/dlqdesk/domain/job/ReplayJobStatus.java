package io.dlqdesk.domain.job;

/** RUNNING and PAUSED have work left; CANCELLED and COMPLETED request nothing more (replays already requested still finish). */
public enum ReplayJobStatus {
    RUNNING, PAUSED, CANCELLED, COMPLETED;

    public boolean hasWorkLeft() {
        return this == RUNNING || this == PAUSED;
    }
}

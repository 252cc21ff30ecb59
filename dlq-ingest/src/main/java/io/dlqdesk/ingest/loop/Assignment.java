package io.dlqdesk.ingest.loop;

/**
 * One assignment of a partition to this consumer. Work received under it counts only while it is
 * current: a revocation, a loss or a restart of the consumer ends it, and work still in flight is then
 * abandoned (the next owner reads those records again). Ended by the loop thread, read by workers.
 */
final class Assignment {

    private volatile boolean current = true;

    boolean current() {
        return current;
    }

    void end() {
        current = false;
    }
}

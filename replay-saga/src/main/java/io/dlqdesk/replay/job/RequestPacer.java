package io.dlqdesk.replay.job;

import java.util.function.LongSupplier;

/**
 * A token bucket: permits accrue at {@code ratePerSecond} and at most one second's worth is kept, so a runner whose round
 * took longer than a tick catches up and the job keeps its rate on average, while a job never bursts more than a second's
 * worth (a new pacer, as after a resume, starts with one permit). Taken without waiting: the runner asks on each tick how
 * many it may start. Time comes from {@code nanos} (System::nanoTime in service), so tests move it by hand. One owner: the
 * runner's thread.
 */
final class RequestPacer {

    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final LongSupplier nanos;
    private int ratePerSecond;
    private double permits;
    private long last;

    RequestPacer(int ratePerSecond, LongSupplier nanos) {
        this.nanos = nanos;
        this.last = nanos.getAsLong();
        this.ratePerSecond = ratePerSecond;
        this.permits = 1; // the first request goes at once
    }

    /** The rate can change between ticks (it is read with the job); permits already accrued stay within the new cap. */
    void rate(int ratePerSecond) {
        refill();
        this.ratePerSecond = ratePerSecond;
        this.permits = Math.min(permits, capacity());
    }

    boolean tryAcquire() {
        refill();
        if (permits >= 1) {
            permits -= 1;
            return true;
        }
        return false;
    }

    private void refill() {
        long now = nanos.getAsLong();
        permits = Math.min(capacity(), permits + (now - last) * (double) ratePerSecond / NANOS_PER_SECOND);
        last = now;
    }

    private double capacity() {
        return ratePerSecond;
    }
}

package io.dlqdesk.bench;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * Watches a count until it reaches a target: when the first item became durable and when the last
 * did. Product and baseline are timed the same way, from their first durable item to their last, so
 * neither pays for the other's start-up (a consumer group join, say). Counts are in-process counters,
 * so watching costs nothing measurable.
 */
final class Progress {

    private Progress() {
    }

    /** {@code System.nanoTime()} of the first item and of the target reached. */
    record Times(long first, long done) {
        double seconds() {
            return (done - first) / 1e9;
        }
    }

    static Times await(LongSupplier count, long target, Duration stall) throws InterruptedException {
        long first = 0;
        long lastChange = System.nanoTime();
        long seen = 0;
        while (true) {
            long now = System.nanoTime();
            long current = count.getAsLong();
            if (current > 0 && first == 0) {
                first = now;
            }
            if (current >= target) {
                return new Times(first, now);
            }
            if (current != seen) {
                seen = current;
                lastChange = now;
            } else if (now - lastChange > stall.toNanos()) {
                throw new IllegalStateException("stuck at " + current + " of " + target + " for " + stall);
            }
            Thread.sleep(2);
        }
    }

    /** {@code System.nanoTime()} when the condition first held. */
    static long until(BooleanSupplier condition, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("not reached within " + timeout);
            }
            Thread.sleep(2);
        }
        return System.nanoTime();
    }
}

package io.dlqdesk.rollback.web;

import org.springframework.scheduling.concurrent.CustomizableThreadFactory;
import io.dlqdesk.rollback.check.ReadinessReport;

import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * At most one rollback check runs; callers share checks instead of queueing one each. A caller joins the
 * next check to start, never one already running, so every verdict it gets was observed after it asked
 * (a check that began before a replay must not answer READY for it). At most {@code maxWaiters} callers
 * wait; beyond that the caller is told to come back ({@link Optional#empty()}) at once. Owns the check's
 * thread and the waiter count; nothing here blocks the caller.
 */
public final class SharedReadinessCheck implements AutoCloseable {

    private final Supplier<ReadinessReport> check;
    private final int maxWaiters;
    private final Clock clock;
    private final ExecutorService runner = Executors.newSingleThreadExecutor(daemonThreads());

    // all guarded by this
    private boolean running;
    private CompletableFuture<ReadinessReport> next;
    private int waiters;
    private Duration lastDuration = Duration.ofSeconds(5);
    private ReadinessReport lastReport;

    public SharedReadinessCheck(Supplier<ReadinessReport> check, int maxWaiters, Clock clock) {
        if (maxWaiters < 1) {
            throw new IllegalArgumentException("max-waiters must be at least 1, was " + maxWaiters);
        }
        this.check = check;
        this.maxWaiters = maxWaiters;
        this.clock = clock;
    }

    /** The verdict of the next check to start, or empty when {@code maxWaiters} callers already wait. */
    public synchronized Optional<CompletableFuture<ReadinessReport>> nextVerdict() {
        if (waiters >= maxWaiters) {
            return Optional.empty();
        }
        waiters++;
        if (next == null) {
            next = new CompletableFuture<>();
        }
        CompletableFuture<ReadinessReport> verdict = next;
        if (!running) {
            startNext();
        }
        return Optional.of(verdict.copy());
    }

    private static CustomizableThreadFactory daemonThreads() {
        CustomizableThreadFactory threads = new CustomizableThreadFactory("rollback-check-");
        threads.setDaemon(true);
        return threads;
    }

    /** How long the last check took: when a turned-away caller should try again. */
    public synchronized Duration retryAfter() {
        return lastDuration.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1) : lastDuration;
    }

    /** The verdict of the check that finished last, if any has: what the metrics show, no check is run for them. */
    public synchronized Optional<ReadinessReport> lastReport() {
        return Optional.ofNullable(lastReport);
    }

    /** Callers waiting for a verdict now (for tests and metrics). */
    public synchronized int waiting() {
        return waiters;
    }

    private void startNext() { // holding the lock
        CompletableFuture<ReadinessReport> verdict = next;
        int sharing = waiters;
        next = null;
        running = true;
        runner.execute(() -> finish(verdict, sharing, run()));
    }

    private ReadinessReport run() {
        long start = System.nanoTime();
        ReadinessReport report;
        try {
            report = check.get();
        } catch (RuntimeException e) {
            report = ReadinessReport.couldNotCheck(clock.instant(), "the check failed: " + e);
        }
        synchronized (this) {
            lastDuration = Duration.ofNanos(System.nanoTime() - start);
        }
        return report;
    }

    private void finish(CompletableFuture<ReadinessReport> verdict, int sharing, ReadinessReport report) {
        synchronized (this) {
            lastReport = report;
            waiters -= sharing;
            running = false;
            if (next != null) {
                startNext();
            }
        }
        verdict.complete(report);
    }

    @Override
    public void close() {
        runner.shutdownNow();
    }
}

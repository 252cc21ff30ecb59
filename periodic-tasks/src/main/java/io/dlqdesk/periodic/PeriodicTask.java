package io.dlqdesk.periodic;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.Lifecycle;
import org.springframework.core.task.TaskRejectedException;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A task run in rounds on one daemon thread of its own ({@code threadName} + n, on Spring's {@link ThreadPoolTaskScheduler}):
 * the first round {@code firstAfter} the start, each next one a delay after the previous round ended (fixed, or the one
 * the round returns). Whatever a round throws is logged and the next round still comes. Stopping interrupts a round under
 * way, or lets it finish for a grace period first. The task's owner is the Spring lifecycle bean: it says the phase,
 * and what else its start and stop do.
 */
public final class PeriodicTask implements Lifecycle {

    private static final Logger log = LoggerFactory.getLogger(PeriodicTask.class);

    private final String threadName;
    private final Duration firstAfter;
    private final Duration every;
    private final Duration finishWithin;
    private final Supplier<Duration> round;
    private ThreadPoolTaskScheduler scheduler;
    private ScheduledExecutorService stopping;
    private volatile boolean running;

    private PeriodicTask(Builder builder, Supplier<Duration> round) {
        this.threadName = builder.threadName;
        this.firstAfter = builder.firstAfter == null ? builder.every : builder.firstAfter;
        this.every = builder.every;
        this.finishWithin = builder.finishWithin;
        this.round = round;
    }

    /** @param threadName the thread's name without its number, e.g. {@code "gauge-refresh-"} */
    public static Builder named(String threadName) {
        return new Builder(threadName);
    }

    /** How a task runs; {@link #every} is required, the first round comes one interval after the start unless said otherwise. */
    public static final class Builder {

        private final String threadName;
        private Duration firstAfter;
        private Duration every;
        private Duration finishWithin;

        private Builder(String threadName) {
            this.threadName = threadName;
        }

        public Builder firstAfter(Duration delay) {
            this.firstAfter = delay;
            return this;
        }

        /** The delay after a round ends; for a paced task, the delay after a round that threw. */
        public Builder every(Duration interval) {
            this.every = interval;
            return this;
        }

        /** Stopping lets a round under way finish for up to {@code grace} (and waits for it), then interrupts it. */
        public Builder finishingARoundWithin(Duration grace) {
            this.finishWithin = grace;
            return this;
        }

        public PeriodicTask runs(Runnable round) {
            return new PeriodicTask(this, () -> {
                round.run();
                return every;
            });
        }

        /** A round that says how long to wait before the next one. */
        public PeriodicTask runsPaced(Supplier<Duration> round) {
            return new PeriodicTask(this, round);
        }
    }

    @Override
    public synchronized void start() {
        ThreadPoolTaskScheduler threads = new ThreadPoolTaskScheduler();
        threads.setPoolSize(1);
        threads.setThreadNamePrefix(threadName);
        threads.setDaemon(true);
        // a round waiting for its time is dropped on stop, not run
        threads.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        threads.setWaitForTasksToCompleteOnShutdown(finishWithin != null);
        threads.setAwaitTerminationMillis(finishWithin == null ? 0 : finishWithin.toMillis());
        threads.initialize();
        scheduler = threads;
        running = true;
        next(threads, firstAfter);
    }

    private void next(ThreadPoolTaskScheduler threads, Duration delay) {
        try {
            threads.schedule(() -> runRound(threads), threads.getClock().instant().plus(delay));
        } catch (TaskRejectedException e) { // stopped meanwhile
        }
    }

    private void runRound(ThreadPoolTaskScheduler threads) {
        if (!running) {
            return;
        }
        Duration delay = every;
        try {
            delay = round.get();
        } catch (Throwable e) { // nothing may end the rounds silently
            log.error("round of {} failed, next one in {}", threadName, delay, e);
        }
        if (running) {
            next(threads, delay);
        }
    }

    /** Interrupts the round under way, or lets it finish (waiting up to the grace period) before interrupting it. */
    @Override
    public synchronized void stop() {
        if (scheduler == null) {
            return;
        }
        running = false;
        stopping = scheduler.getScheduledExecutor();
        scheduler.shutdown();
        if (!stopping.isTerminated()) { // still busy after the grace period, or no grace
            stopping.shutdownNow();
        }
        scheduler = null;
    }

    /** After {@link #stop()}: waits until the thread has ended. */
    public boolean awaitStopped(Duration bound) throws InterruptedException {
        ScheduledExecutorService stopped;
        synchronized (this) {
            stopped = stopping;
        }
        return stopped == null || stopped.awaitTermination(bound.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** True from start to stop: a round may check it to end early. */
    @Override
    public boolean isRunning() {
        return running;
    }
}

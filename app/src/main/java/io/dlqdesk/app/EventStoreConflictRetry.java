package io.dlqdesk.app;

import org.axonframework.commandhandling.CommandMessage;
import org.axonframework.commandhandling.gateway.RetryScheduler;
import org.axonframework.modelling.command.ConcurrencyException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.concurrent.CustomizableThreadFactory;
import org.springframework.util.backoff.BackOffExecution;
import org.springframework.util.backoff.ExponentialBackOff;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Within one instance Axon runs the commands of an aggregate one at a time; two instances can load
 * the same incident at once, and the one that appends second loses on the event store's unique
 * (aggregate, sequence) key. Its command is dispatched again, so it is decided on the state the other
 * left (accepted, or refused for that state), never as a lost update. Only that race is retried: a
 * command refused by a rule fails at once.
 * <p>
 * The pause before a retry doubles from {@code initialBackoff} up to {@code maxBackoff}, plus a random jitter of up
 * to {@code initialBackoff}, so that the two instances do not collide again in step.
 */
final class EventStoreConflictRetry implements RetryScheduler, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(EventStoreConflictRetry.class);

    private final ScheduledExecutorService executor;
    private final ExponentialBackOff backOff;
    private final long jitterMillis;

    EventStoreConflictRetry(int maxRetries, Duration initialBackoff, Duration maxBackoff) {
        CustomizableThreadFactory threads = new CustomizableThreadFactory("command-conflict-retry-");
        threads.setDaemon(true);
        this.executor = Executors.newSingleThreadScheduledExecutor(threads);
        this.backOff = new ExponentialBackOff(initialBackoff.toMillis(), 2.0);
        this.backOff.setMaxInterval(maxBackoff.toMillis());
        this.backOff.setMaxAttempts(maxRetries);
        this.jitterMillis = initialBackoff.toMillis();
    }

    @Override
    public boolean scheduleRetry(CommandMessage commandMessage, RuntimeException lastFailure,
                                 List<Class<? extends Throwable>[]> failures, Runnable dispatchTask) {
        long delay = lostTheRace(lastFailure) ? delayBefore(failures.size()) : BackOffExecution.STOP;
        if (delay == BackOffExecution.STOP) {
            return false;
        }
        log.info("{} lost a race on the event store ({}); dispatching it again in {} ms (retry {} of {})",
                commandMessage.getCommandName(), lastFailure.getMessage(), delay, failures.size(), backOff.getMaxAttempts());
        executor.schedule(dispatchTask, delay, TimeUnit.MILLISECONDS);
        return true;
    }

    /**
     * The pause before the {@code retry}-th dispatch (1 for the first), or {@link BackOffExecution#STOP} past the
     * last. Axon counts a command's failures, so the schedule is walked up to it. Jitter is added here: this Spring
     * version's ExponentialBackOff has none.
     */
    long delayBefore(int retry) {
        BackOffExecution pauses = backOff.start();
        long pause = BackOffExecution.STOP;
        for (int i = 0; i < retry; i++) {
            pause = pauses.nextBackOff();
        }
        return pause == BackOffExecution.STOP ? pause : pause + ThreadLocalRandom.current().nextLong(jitterMillis + 1);
    }

    /** Retries not yet dispatched are dropped: their callers get the conflict. */
    @Override
    public void close() {
        executor.shutdownNow();
    }

    private static boolean lostTheRace(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof ConcurrencyException) {
                return true;
            }
        }
        return false;
    }
}

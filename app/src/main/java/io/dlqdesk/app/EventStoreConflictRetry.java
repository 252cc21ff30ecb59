package io.dlqdesk.app;

import org.axonframework.commandhandling.CommandMessage;
import org.axonframework.commandhandling.gateway.RetryScheduler;
import org.axonframework.modelling.command.ConcurrencyException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.concurrent.CustomizableThreadFactory;

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
 */
final class EventStoreConflictRetry implements RetryScheduler, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(EventStoreConflictRetry.class);

    private final ScheduledExecutorService executor;
    private final int maxRetries;
    private final Duration backoff;

    EventStoreConflictRetry(int maxRetries, Duration backoff) {
        CustomizableThreadFactory threads = new CustomizableThreadFactory("command-conflict-retry-");
        threads.setDaemon(true);
        this.executor = Executors.newSingleThreadScheduledExecutor(threads);
        this.maxRetries = maxRetries;
        this.backoff = backoff;
    }

    @Override
    public boolean scheduleRetry(CommandMessage commandMessage, RuntimeException lastFailure,
                                 List<Class<? extends Throwable>[]> failures, Runnable dispatchTask) {
        if (failures.size() > maxRetries || !lostTheRace(lastFailure)) {
            return false;
        }
        // growing, with jitter, so that the two instances do not collide again in step
        long delay = backoff.toMillis() * failures.size() + ThreadLocalRandom.current().nextLong(backoff.toMillis() + 1);
        log.info("{} lost a race on the event store ({}); dispatching it again in {} ms (retry {} of {})",
                commandMessage.getCommandName(), lastFailure.getMessage(), delay, failures.size(), maxRetries);
        executor.schedule(dispatchTask, delay, TimeUnit.MILLISECONDS);
        return true;
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

package io.dlqdesk.rollback.check;

import org.springframework.scheduling.concurrent.CustomizableThreadFactory;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Each read of a check waits at most its bound here, whatever the driver or client does (a pool waiting for a connection,
 * say): the read runs on a thread of its own, and one that does not answer in time is cancelled and reported, not waited
 * out. Owns those threads (daemon, {@code rollback-check-read-N}); closing it interrupts the reads still running, and a
 * read asked for afterwards throws (the check then says UNKNOWN).
 */
public final class BoundedReads implements AutoCloseable {

    // cached: a cancelled read that ignores its interrupt keeps its thread, and must not hold up the next check's reads
    private final ExecutorService threads = Executors.newCachedThreadPool(daemonThreads());

    <T> Read<T> read(String source, Callable<T> reading, Duration bound) throws InterruptedException {
        Future<T> result = threads.submit(reading);
        try {
            return Read.of(result.get(bound.toMillis(), TimeUnit.MILLISECONDS));
        } catch (InterruptedException e) {
            result.cancel(true);
            throw e;
        } catch (TimeoutException e) {
            result.cancel(true);
            return Read.failed(source + " did not answer within " + bound);
        } catch (ExecutionException e) {
            return Read.failed(Read.logged(source + " could not be read", e.getCause()));
        }
    }

    @Override
    public void close() {
        threads.shutdownNow();
    }

    private static CustomizableThreadFactory daemonThreads() {
        CustomizableThreadFactory threads = new CustomizableThreadFactory("rollback-check-read-");
        threads.setDaemon(true);
        return threads;
    }
}

package io.dlqdesk.ingest.loop;

import io.dlqdesk.ingest.classify.Classification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.concurrent.CustomizableThreadFactory;
import org.springframework.util.backoff.BackOffExecution;
import org.springframework.util.backoff.ExponentialBackOff;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Writes records on worker threads; the one owner of worker slots and of retries. A record takes its
 * slot in {@link #submit} or {@link #submitBatch} and gives it back exactly once, in {@code finish},
 * whether it was written, handed to the malformed policy, abandoned, or the workers are stopping.
 * A transient failure ({@link WriteFailures}) is retried with backoff without bound; a failure of the
 * record's own at most {@code maxRecordAttempts} times, then the malformed policy takes it.
 */
final class RecordWorkers {

    private static final Logger log = LoggerFactory.getLogger(RecordWorkers.class);

    private final RecordHandler handler;
    private final LoopSettings settings;
    private final ExecutorService workers;
    private final ScheduledExecutorService retries;
    private final LoopHealth health;
    private final IngestMetrics metrics;
    private final AtomicInteger slots = new AtomicInteger();
    private final ConcurrentLinkedQueue<WorkOutcome> outcomes = new ConcurrentLinkedQueue<>();
    private final Object slotGivenBack = new Object();

    RecordWorkers(RecordHandler handler, LoopSettings settings, ExecutorService workers, LoopHealth health, IngestMetrics metrics) {
        this.handler = handler;
        this.settings = settings;
        this.workers = workers;
        this.health = health;
        this.metrics = metrics;
        CustomizableThreadFactory retryThreads = new CustomizableThreadFactory("dlq-ingest-retry-");
        retryThreads.setDaemon(true);
        this.retries = Executors.newSingleThreadScheduledExecutor(retryThreads);
    }

    /** Records holding a slot: handed to a worker and not finished yet, retries waiting included. */
    int inFlight() {
        return slots.get();
    }

    /**
     * Waits until fewer than {@code count} records hold a slot, or {@code timeout} passes: the loop's wait when
     * it can take nothing new until work in flight ends.
     */
    void awaitFewerThan(int count, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (slotGivenBack) {
            long left;
            while (slots.get() >= count && (left = deadline - System.nanoTime()) > 0) {
                try {
                    TimeUnit.NANOSECONDS.timedWait(slotGivenBack, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /** One record on a worker of its own. */
    void submit(Work work) {
        start(List.of(work), () -> attempt(work, new Tries(work.classification())));
    }

    /**
     * Failures and re-failures in one write (one transaction instead of one per record). If the batch fails,
     * each record goes on on its own, so one bad record cannot hold the others; a batch failure does
     * not count as a try of any of them.
     */
    void submitBatch(List<Work> batch) {
        start(batch, () -> writeBatch(batch));
    }

    /** Hands every outcome reported so far to the loop thread, in order. */
    void drainOutcomes(Consumer<WorkOutcome> apply) {
        WorkOutcome outcome;
        while ((outcome = outcomes.poll()) != null) {
            apply.accept(outcome);
        }
    }

    void shutdown() {
        retries.shutdownNow();
        workers.shutdownNow();
    }

    /** The only place slots are taken: only for work actually handed to a worker, so a failed round cannot leak them. */
    private void start(List<Work> works, Runnable task) {
        slots.addAndGet(works.size());
        try {
            workers.execute(task);
        } catch (RuntimeException e) {
            works.forEach(work -> finish(work, null));
            throw e;
        }
    }

    /** The only place slots are given back; {@code outcome} is null for abandoned work (it comes again). */
    private void finish(Work work, WorkOutcome outcome) {
        if (outcome != null) {
            outcomes.add(outcome);
        }
        slots.decrementAndGet();
        synchronized (slotGivenBack) {
            slotGivenBack.notifyAll();
        }
    }

    private void writeBatch(List<Work> batch) {
        List<Work> current = new ArrayList<>();
        for (Work work : batch) {
            if (work.current()) {
                current.add(work);
            } else {
                finish(work, null);
            }
        }
        if (current.isEmpty()) {
            return;
        }
        try {
            handler.handleAll(current.stream().map(work -> new RecordHandler.Classified(work.record(), work.classification())).toList());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // stopping: the records come again
            current.forEach(work -> finish(work, null));
            return;
        } catch (Throwable e) { // an Error too: the batch's records go one by one on their slots, none is lost with the batch
            noteFailure(e);
            metrics.batchFellBack();
            log.warn("writing a batch of {} DLQ records failed, writing them one by one: {}", current.size(), e.toString());
            current.forEach(work -> handOver(work, () -> attempt(work, new Tries(work.classification())))); // they keep their slots
            return;
        }
        health.writeSucceeded();
        metrics.batchWritten(current.size());
        for (Work work : current) {
            metrics.ingested();
            finish(work, new WorkOutcome.Completed(work));
        }
    }

    /** One try on a worker. Retries wait on the scheduler, not on a worker, so failing records cannot occupy every worker. */
    private void attempt(Work work, Tries tries) {
        if (!work.current()) {
            finish(work, null);
            return;
        }
        try {
            handler.handle(work.record(), tries.classification);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // stopping: the record comes again
            finish(work, null);
            return;
        } catch (Throwable e) { // an Error too: the record is retried or quarantined, never dropped with its worker slot
            failed(work, tries, e);
            return;
        }
        health.writeSucceeded();
        if (tries.classification instanceof Classification.Malformed) {
            metrics.quarantined();
        } else {
            metrics.ingested();
        }
        finish(work, new WorkOutcome.Completed(work));
    }

    private void failed(Work work, Tries tries, Throwable failure) {
        WriteFailures.Kind kind = noteFailure(failure);
        if (kind.retriedWithoutBound()) {
            retryLater(work, tries, failure);
            return;
        }
        tries.ownFailures++;
        if (tries.ownFailures < settings.maxRecordAttempts()) {
            retryLater(work, tries, failure);
            return;
        }
        String reason = "write failed after " + tries.ownFailures + " tries: " + WriteFailures.describe(failure);
        if (tries.classification instanceof Classification.Malformed malformed) {
            // not even the quarantine row can be written: holding the partition is the only way to lose nothing
            metrics.gaveUp(MalformedPolicy.PAUSE_PARTITION);
            log.error("DLQ record {} cannot be quarantined ({}); its partition is held there, the others flow", work.where(), reason);
            finish(work, new WorkOutcome.Held(work, malformed.reason() + "; quarantine " + reason));
        } else if (settings.malformedPolicy() == MalformedPolicy.QUARANTINE) {
            metrics.gaveUp(MalformedPolicy.QUARANTINE);
            log.warn("DLQ record {} cannot be written ({}); quarantining it", work.where(), reason);
            String why = work.classification().getClass().getSimpleName() + " record not writable";
            handOver(work, () -> attempt(work, new Tries(new Classification.Malformed(why + ": " + reason))));
        } else {
            metrics.gaveUp(MalformedPolicy.PAUSE_PARTITION);
            log.error("DLQ record {} cannot be written ({}); its partition is held there, the others flow", work.where(), reason);
            finish(work, new WorkOutcome.Held(work, reason));
        }
    }

    private WriteFailures.Kind noteFailure(Throwable failure) {
        WriteFailures.Kind kind = WriteFailures.kindOf(failure);
        health.writeFailed(kind, failure);
        metrics.writeFailed(kind);
        return kind;
    }

    private void retryLater(Work work, Tries tries, Throwable failure) {
        long wait = tries.backOff.nextBackOff();
        log.warn("writing DLQ record {} failed, retrying in {} ms: {}", work.where(), wait, failure.toString());
        try {
            retries.schedule(() -> handOver(work, () -> attempt(work, tries)), wait, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException stopping) {
            finish(work, null);
        }
    }

    /** Runs a record's next try on a worker; if the workers are gone (stopping), it finishes abandoned. */
    private void handOver(Work work, Runnable task) {
        try {
            workers.execute(task);
        } catch (RejectedExecutionException stopping) {
            finish(work, null);
        }
    }

    /** A record's tries so far. Touched by one thread at a time: the executors hand it over. */
    private final class Tries {

        final Classification classification;
        final BackOffExecution backOff;
        int ownFailures;

        Tries(Classification classification) {
            this.classification = classification;
            ExponentialBackOff exponential = new ExponentialBackOff(settings.retryInitialBackoff().toMillis(), 2.0);
            exponential.setMaxInterval(settings.retryMaxBackoff().toMillis());
            this.backOff = exponential.start();
        }
    }
}

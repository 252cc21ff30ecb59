package io.dlqdesk.ingest.loop;

import io.dlqdesk.ingest.classify.Classification;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The DLQ consumer loop: the poll, commit and rebalance skeleton. One thread owns the consumer and
 * the partitions' state ({@link PartitionStates}); it takes each poll's records in ({@link RecordIntake}: classified
 * before they take a slot of {@link RecordWorkers}, which owns slots and retries), applies what the workers report,
 * and commits per partition only the end of the contiguous completed prefix. Any exception that
 * escapes a poll, a commit or a rebalance callback recreates the consumer; {@link LoopHealth} tells
 * readiness and liveness whether the loop really polls and makes progress.
 */
public final class DlqConsumerLoop {

    private static final Logger log = LoggerFactory.getLogger(DlqConsumerLoop.class);
    /** Closing the consumer commits and leaves the group: bounded, so a stop is too. */
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(5);

    private final Supplier<Consumer<byte[], byte[]>> consumers;
    private final LoopSettings settings;
    private final RecordWorkers workers;
    private final LoopHealth health;
    private final IngestMetrics metrics;

    // owned by the loop thread
    private final PartitionStates partitions = new PartitionStates();
    private final RecordIntake intake;
    private final PrefixCommits commits;
    private final IngestLag lag = new IngestLag();
    private BrokerConnection broker;
    /** Whether a record left its slot since the last round ended. */
    private boolean recordsLeftTheirSlots;

    private volatile Consumer<byte[], byte[]> consumer;
    private volatile boolean running;
    private boolean stopped;
    private Thread thread;

    public DlqConsumerLoop(Supplier<Consumer<byte[], byte[]>> consumers, Function<ConsumerRecord<byte[], byte[]>, Classification> classifier,
                           RecordHandler handler, LoopSettings settings, ExecutorService workers, LoopHealth health, IngestMetrics metrics) {
        this.consumers = consumers;
        this.settings = settings;
        this.health = health;
        this.metrics = metrics;
        this.workers = new RecordWorkers(handler, settings, workers, health, metrics);
        this.commits = new PrefixCommits(partitions, settings.commitTimeout());
        this.intake = new RecordIntake(classifier, settings, partitions, this.workers, metrics, this::hold);
    }

    /** Once stopped, a loop stays stopped (its workers are gone): create a new one instead. */
    public synchronized void start() {
        if (running) {
            return;
        }
        if (stopped) {
            throw new IllegalStateException("a stopped DLQ consumer loop cannot be started again");
        }
        running = true;
        health.started();
        thread = new Thread(this::run, "dlq-ingest-loop");
        thread.start();
    }

    /**
     * Stops polling, waits up to the drain timeout for the records in flight to be written, commits the completed
     * prefix and leaves the group, so the partitions move at once. Work still in flight after the drain timeout is
     * abandoned: its records come again to the partitions' next owner (every write is idempotent). Returns within the
     * drain timeout plus the commit timeout and the leave.
     */
    public void stop() {
        Thread loopThread;
        synchronized (this) {
            if (!running) {
                return;
            }
            running = false;
            stopped = true;
            loopThread = thread;
        }
        Consumer<byte[], byte[]> current = consumer;
        if (current != null) {
            current.wakeup();
        }
        try {
            loopThread.join(settings.drainTimeout().plus(settings.commitTimeout()).plus(CLOSE_TIMEOUT).plus(Duration.ofSeconds(5)).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        workers.shutdown();
        health.stopped();
    }

    public synchronized boolean running() {
        return running && thread != null && thread.isAlive();
    }

    /** What readiness, liveness and the metrics read. */
    public LoopHealth health() {
        return health;
    }

    private void run() {
        try {
            while (running) {
                Throwable failure = consumeUntilStoppedOrFailed();
                if (failure == null) {
                    drainAndCommit();
                } else {
                    health.loopFailed(WriteFailures.describe(failure));
                }
                closeConsumer(); // closing revokes the partitions, which commits their completed prefix
                if (failure != null) {
                    restartAfter(failure);
                }
            }
        } finally {
            health.stopped();
        }
    }

    private Throwable consumeUntilStoppedOrFailed() {
        try {
            consumer = consumers.get();
            broker = new BrokerConnection(consumer);
            consumer.subscribe(settings.topics(), new Rebalance(partitions, this::commit));
            while (running) {
                pollOnce();
            }
            return null;
        } catch (WakeupException e) {
            return running ? e : null;
        } catch (Throwable e) { // an Error too: readiness reports it and the loop starts again, the thread never just ends
            return e;
        }
    }

    /** One round, as named steps. */
    private void pollOnce() {
        ConsumerRecords<byte[], byte[]> records = consumer.poll(awaitWorkersIfAllPaused());
        intake.take(records);
        commit(partitions.partitions()); // applies what the workers reported first
        applyBackpressure();
        reportRound();
    }

    /**
     * With every partition paused, a poll sleeps its whole timeout however soon the workers finish (it was the
     * ceiling of a storm: max-in-flight records per poll timeout). So with work in flight the loop waits for a
     * worker to give back a slot instead, and polls without waiting. With none in flight the pauses may be stale:
     * the workers may all have finished after this round's pauses were decided. Nothing can change under the loop
     * then, so it settles their outcomes and the pauses first. Returns how long the poll may wait.
     */
    private Duration awaitWorkersIfAllPaused() {
        if (!allAssignedPaused()) {
            return settings.pollTimeout();
        }
        int inFlight = workers.inFlight();
        if (inFlight > 0) {
            workers.awaitFewerThan(inFlight, settings.pollTimeout());
            return Duration.ZERO;
        }
        commit(partitions.partitions());
        applyBackpressure();
        return settings.pollTimeout(); // still all paused: held, or waiting on a commit that failed
    }

    private boolean allAssignedPaused() {
        Set<TopicPartition> assignment = consumer.assignment();
        return !assignment.isEmpty() && consumer.paused().containsAll(assignment);
    }

    /** Completions move the prefix; a record that cannot be written holds its partition (pause-partition policy). */
    private void applyOutcomes() {
        workers.drainOutcomes(outcome -> {
            recordsLeftTheirSlots = true;
            if (outcome instanceof WorkOutcome.Completed completed) {
                partitions.completed(completed.work());
            } else if (outcome instanceof WorkOutcome.Held held && partitions.wouldHold(held.work())) {
                hold(held.work().partition(), held.work().offset(), held.reason());
            }
        });
    }

    /**
     * Pause-partition policy: hold the partition at the record. If the pause or the seek fails, the
     * loop cannot keep its promise for that partition: it stops, and readiness goes DOWN.
     */
    private void hold(TopicPartition partition, long offset, String reason) {
        try {
            consumer.pause(List.of(partition));
            consumer.seek(partition, offset);
        } catch (RuntimeException e) {
            log.error("could not hold {} at {}; stopping DLQ ingest", partition, offset, e);
            running = false;
            throw new IllegalStateException("pause/seek of " + partition + " at " + offset + " failed", e);
        }
        partitions.held(partition, offset, reason);
        health.blocked(partitions.heldPartitions());
        metrics.blocked();
    }

    private void commit(Collection<TopicPartition> which) {
        applyOutcomes();
        commits.commit(consumer, which);
    }

    private void applyBackpressure() {
        boolean inFlightFull = workers.inFlight() >= settings.maxInFlight();
        PartitionStates.Pauses pauses = partitions.pauses(consumer.assignment(), inFlightFull, settings.maxAwaitingCommitPerPartition());
        if (!pauses.pause().isEmpty()) {
            consumer.pause(pauses.pause());
        }
        if (!pauses.resume().isEmpty()) {
            consumer.resume(pauses.resume());
        }
    }

    /** The heartbeat moves only when a round completes, so a loop that keeps failing goes stale. */
    private void reportRound() {
        metrics.awaitingCommit(partitions.awaitingCommit());
        health.lag(lag.measure(consumer, partitions)); // the consumer is this thread's: measured here, published as a snapshot
        health.roundCompleted(workers.inFlight(), recordsLeftTheirSlots, broker.open(), partitions.heldPartitions());
        recordsLeftTheirSlots = false;
    }

    /** On stop: the records in flight finish (up to the drain timeout), then the prefix they complete is committed. */
    private void drainAndCommit() {
        int inFlight = workers.inFlight();
        if (inFlight > 0) {
            log.info("DLQ ingest stopping: waiting up to {} for {} record(s) in flight", settings.drainTimeout(), inFlight);
            workers.awaitFewerThan(1, settings.drainTimeout());
        }
        commitOnStop();
        int abandoned = workers.inFlight();
        if (abandoned == 0) {
            log.info("DLQ ingest drained: no record in flight, completed offsets committed; leaving the group");
        } else {
            log.warn("DLQ ingest drain timed out after {}: {} record(s) still in flight are abandoned and come again to their "
                    + "partitions' next owner; leaving the group", settings.drainTimeout(), abandoned);
        }
    }

    private void commitOnStop() {
        for (int attempt = 0; attempt < 2; attempt++) {
            try {
                commit(partitions.partitions());
                return;
            } catch (WakeupException e) {
                // the stop's wakeup landed here rather than in poll: it is consumed now, try once more
            } catch (RuntimeException e) {
                log.warn("commit on stop failed; completed records since the last commit come again: {}", e.toString());
                return;
            }
        }
    }

    private void restartAfter(Throwable error) {
        log.error("DLQ ingest loop failed; restarting the consumer in {}", settings.restartBackoff(), error);
        metrics.restarted();
        partitions.forgetAll();
        workers.drainOutcomes(outcome -> { }); // of assignments that just ended
        health.blocked(Map.of());
        health.lag(Map.of());
        sleep(settings.restartBackoff());
    }

    private void closeConsumer() {
        Consumer<byte[], byte[]> current = consumer;
        if (current != null) {
            try {
                current.close(CLOSE_TIMEOUT);
            } catch (RuntimeException e) {
                log.warn("closing the DLQ consumer failed: {}", e.toString());
            }
        }
        consumer = null;
    }

    private static void sleep(Duration duration) {
        try {
            TimeUnit.MILLISECONDS.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

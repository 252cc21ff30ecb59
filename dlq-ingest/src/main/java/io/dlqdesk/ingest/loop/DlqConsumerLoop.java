package io.dlqdesk.ingest.loop;

import io.dlqdesk.ingest.classify.Classification;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.RetriableCommitFailedException;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.util.backoff.BackOffExecution;
import org.springframework.util.backoff.ExponentialBackOff;

import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientConnectionException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The DLQ consumer loop. One thread owns the consumer: it polls, classifies each record before it
 * takes a worker slot, hands the rest to workers, and commits per partition only the end of the
 * contiguous completed prefix ({@link PartitionProgress}). Backpressure pauses partitions: all of
 * them when the global in-flight bound is reached, one when its own awaiting-commit bound is.
 * Any exception that escapes a poll, a commit or a rebalance callback restarts the consumer; the
 * heartbeat tells readiness whether the loop really polls.
 */
public final class DlqConsumerLoop {

    private static final Logger log = LoggerFactory.getLogger(DlqConsumerLoop.class);

    private final Supplier<Consumer<byte[], byte[]>> consumers;
    private final Function<ConsumerRecord<byte[], byte[]>, Classification> classifier;
    private final RecordHandler handler;
    private final LoopSettings settings;
    private final ExecutorService workers;
    private final ScheduledExecutorService retryScheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "dlq-ingest-retry");
        thread.setDaemon(true);
        return thread;
    });
    private final Clock clock;

    private final AtomicInteger inFlight = new AtomicInteger();
    private final ConcurrentLinkedQueue<Completion> completions = new ConcurrentLinkedQueue<>();
    /** Bumped when a partition is assigned, revoked or the consumer restarts: older work is abandoned. */
    private final Map<TopicPartition, Integer> epochs = new ConcurrentHashMap<>();
    private final Map<TopicPartition, String> blocked = new ConcurrentHashMap<>();
    private final IngestMetrics metrics;

    // owned by the loop thread
    private final Map<TopicPartition, PartitionProgress> progress = new HashMap<>();
    private final Set<TopicPartition> paused = new HashSet<>();
    private volatile Consumer<byte[], byte[]> consumer;

    private volatile boolean running;
    private volatile Instant heartbeat;
    /** Last round that ended with nothing in flight, or in which in-flight work completed. */
    private volatile Instant lastProgress;
    /** Last round in which the consumer had at least one open broker connection. */
    private volatile Instant lastBrokerContact;
    private Metric connectionCount;
    private boolean noConnectionMetric;
    /** The latest write outcome was a failure to reach the database (cleared by any write that succeeds). */
    private volatile boolean databaseUnreachable;
    private boolean completedThisRound;
    private volatile String lastError;
    private volatile Thread thread;
    private boolean stopped;

    public DlqConsumerLoop(Supplier<Consumer<byte[], byte[]>> consumers, Function<ConsumerRecord<byte[], byte[]>, Classification> classifier,
                           RecordHandler handler, LoopSettings settings, ExecutorService workers, Clock clock,
                           Function<DlqConsumerLoop, IngestMetrics> metrics) {
        this.consumers = consumers;
        this.classifier = classifier;
        this.handler = handler;
        this.settings = settings;
        this.workers = workers;
        this.clock = clock;
        this.heartbeat = clock.instant();
        this.lastProgress = heartbeat;
        this.lastBrokerContact = heartbeat;
        this.metrics = metrics.apply(this);
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
        heartbeat = clock.instant();
        lastProgress = heartbeat;
        lastBrokerContact = heartbeat;
        thread = new Thread(this::run, "dlq-ingest-loop");
        thread.start();
    }

    /** Stops polling, commits what is complete, and abandons work still in flight (it is redelivered). */
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
            loopThread.join(Duration.ofSeconds(30).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        retryScheduler.shutdownNow();
        workers.shutdownNow();
    }

    public boolean running() {
        return running && thread != null && thread.isAlive();
    }

    public Instant lastHeartbeat() {
        return heartbeat;
    }

    /**
     * When the loop last made progress: a round ended with no record in flight, or records in flight
     * were written. Stays behind while writes keep failing though polls go on.
     */
    public Instant lastProgress() {
        return lastProgress;
    }

    /** Whether the latest write failed because the database could not be reached. */
    public boolean databaseUnreachable() {
        return databaseUnreachable;
    }

    /** When the consumer last had an open connection to a broker; stays behind while no broker answers. */
    public Instant lastBrokerContact() {
        return lastBrokerContact;
    }

    public String lastError() {
        return lastError;
    }

    /** Partitions held at a malformed record (pause-partition policy), with the reason. */
    public Map<String, String> blockedPartitions() {
        Map<String, String> view = new TreeMap<>();
        blocked.forEach((partition, reason) -> view.put(partition.toString(), reason));
        return view;
    }

    AtomicInteger inFlight() {
        return inFlight;
    }

    double heartbeatAgeSeconds() {
        return Duration.between(heartbeat, clock.instant()).toMillis() / 1000.0;
    }

    int blockedCount() {
        return blocked.size();
    }

    private void run() {
        while (running) {
            Throwable failure = null;
            try {
                consumer = consumers.get();
                connectionCount = null;
                noConnectionMetric = false;
                consumer.subscribe(settings.topics(), new Rebalance());
                while (running) {
                    pollOnce();
                }
            } catch (WakeupException e) {
                if (running) {
                    failure = e;
                }
            } catch (Throwable e) {
                failure = e;
            }
            if (failure == null) {
                commitOnStop();
            } else {
                lastError = failure.getClass().getName() + ": " + failure.getMessage();
            }
            // closing revokes the partitions, which commits their completed prefix
            closeConsumer();
            if (failure != null) {
                restartAfter(failure);
            }
        }
    }

    private void commitOnStop() {
        for (int attempt = 0; attempt < 2; attempt++) {
            try {
                commitCompleted();
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
        abandonAll();
        sleep(settings.restartBackoff());
    }

    /** One round; the heartbeat moves only when a round completes, so a loop that keeps failing goes stale. */
    private void pollOnce() {
        ConsumerRecords<byte[], byte[]> records = consumer.poll(settings.pollTimeout());
        List<Work> firstFailures = new ArrayList<>();
        for (TopicPartition partition : records.partitions()) {
            for (ConsumerRecord<byte[], byte[]> record : records.records(partition)) {
                if (blocked.containsKey(partition)) {
                    break; // seeked back to the blocking record: the rest comes again after it
                }
                receive(partition, record, firstFailures);
            }
        }
        for (int from = 0; from < firstFailures.size(); from += settings.batchSize()) {
            List<Work> batch = List.copyOf(firstFailures.subList(from, Math.min(firstFailures.size(), from + settings.batchSize())));
            submit(batch.size(), () -> workBatch(batch));
        }
        commitCompleted(); // drains the completions first
        applyBackpressure();
        Map<String, Integer> awaiting = new HashMap<>();
        progress.forEach((partition, state) -> awaiting.put(partition.toString(), state.awaitingCommit()));
        metrics.awaitingCommit(awaiting);
        Instant now = clock.instant();
        if (completedThisRound || inFlight.get() == 0) {
            lastProgress = now;
        }
        completedThisRound = false;
        if (brokerConnected()) {
            lastBrokerContact = now;
        }
        heartbeat = now;
    }

    /** From the consumer's own count of open broker connections: a poll with no broker still returns, empty. */
    private boolean brokerConnected() {
        if (connectionCount == null && !noConnectionMetric) {
            connectionCount = consumer.metrics().entrySet().stream()
                    .filter(entry -> entry.getKey().name().equals("connection-count") && entry.getKey().group().equals("consumer-metrics"))
                    .map(Map.Entry::getValue).findFirst().orElse(null);
            if (connectionCount == null) { // not a KafkaConsumer (a test double), or the metric was renamed
                noConnectionMetric = true;
                log.warn("the DLQ consumer has no consumer-metrics/connection-count; readiness cannot see a broker outage");
            }
        }
        return noConnectionMetric || connectionCount.metricValue() instanceof Number number && number.doubleValue() > 0;
    }

    /** Slots are taken only for work actually handed to a worker, so a failed round cannot leak them. */
    private void submit(int records, Runnable task) {
        inFlight.addAndGet(records);
        try {
            workers.execute(task);
        } catch (RuntimeException e) {
            inFlight.addAndGet(-records);
            throw e;
        }
    }

    /** First failures are collected for batched writing; everything else goes to a worker on its own. */
    private void receive(TopicPartition partition, ConsumerRecord<byte[], byte[]> record, List<Work> firstFailures) {
        metrics.consumed();
        PartitionProgress state = progress.computeIfAbsent(partition, p -> new PartitionProgress());
        Classification classification = classifier.apply(record);
        if (classification instanceof Classification.NotOurs) {
            state.received(record.offset());
            state.completed(record.offset());
            metrics.ignored();
            return;
        }
        if (classification instanceof Classification.Malformed malformed && settings.malformedPolicy() == MalformedPolicy.PAUSE_PARTITION) {
            block(partition, record.offset(), malformed.reason());
            return;
        }
        state.received(record.offset());
        Work work = new Work(partition, epochs.getOrDefault(partition, 0), record, classification);
        if (classification instanceof Classification.Failure) {
            firstFailures.add(work);
        } else {
            submit(1, () -> work(work));
        }
    }

    /**
     * Many first failures in one database transaction (one commit instead of one per record). If the
     * batch fails, each record is retried on its own, so one bad apple cannot hold the others.
     */
    private void workBatch(List<Work> batch) {
        List<Work> current = batch.stream().filter(work -> current(work.partition(), work.epoch())).toList();
        inFlight.addAndGet(current.size() - batch.size());
        if (current.isEmpty()) {
            return;
        }
        try {
            handler.handleAll(current.stream().map(work -> new RecordHandler.Classified(work.record(), work.classification())).toList());
        } catch (Throwable e) {
            noteFailure(e);
            log.warn("writing a batch of {} DLQ records failed, writing them one by one: {}", current.size(), e.toString());
            current.forEach(work -> handOver(() -> work(work))); // their slots are already counted
            return;
        }
        databaseUnreachable = false;
        for (Work work : current) {
            metrics.ingested();
            completions.add(new Completion(work.partition(), work.epoch(), work.record().offset()));
        }
        inFlight.addAndGet(-current.size());
    }

    /**
     * Pause-partition policy: hold the partition at the bad record. If the pause or the seek fails,
     * the loop cannot keep its promise for that partition: it stops, and readiness goes DOWN.
     */
    private void block(TopicPartition partition, long offset, String reason) {
        log.error("DLQ record {}@{} is malformed ({}); partition paused and nothing past it committed", partition, offset, reason);
        try {
            consumer.pause(List.of(partition));
            paused.add(partition);
            consumer.seek(partition, offset);
        } catch (RuntimeException e) {
            lastError = "pause/seek of " + partition + " at " + offset + " failed: " + e;
            log.error("could not hold {} at {}; stopping DLQ ingest", partition, offset, e);
            running = false;
            throw e;
        }
        progress.get(partition).rewindTo(offset);
        blocked.put(partition, "offset " + offset + ": " + reason);
        metrics.blocked();
    }

    private void work(Work work) {
        attempt(work, null);
    }

    /**
     * One try on a worker. A failure is retried with backoff from a scheduler, not by sleeping on the
     * worker: records that keep failing must not occupy every worker and so stall other partitions.
     * The record keeps its slot until it is written or its partition is no longer ours.
     */
    private void attempt(Work work, BackOffExecution backOff) {
        boolean release = true;
        try {
            if (!current(work.partition(), work.epoch())) {
                return;
            }
            handler.handle(work.record(), work.classification());
            databaseUnreachable = false;
            if (work.classification() instanceof Classification.Malformed) {
                metrics.quarantined();
            } else {
                metrics.ingested();
            }
            completions.add(new Completion(work.partition(), work.epoch(), work.record().offset()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // stopping: the record comes again
        } catch (Throwable e) {
            noteFailure(e);
            BackOffExecution next = backOff != null ? backOff : newBackOff();
            long wait = next.nextBackOff();
            log.warn("writing DLQ record {}@{} failed, retrying in {} ms: {}", work.partition(), work.record().offset(), wait, e.toString());
            try {
                retryScheduler.schedule(() -> handOver(() -> attempt(work, next)), wait, TimeUnit.MILLISECONDS);
                release = false;
            } catch (RejectedExecutionException stopping) {
                // the record comes again
            }
        } finally {
            if (release) {
                inFlight.decrementAndGet();
            }
        }
    }

    /** A record that fails on its own does not make the database unreachable; a lost or refused connection does. */
    private void noteFailure(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof SQLTransientConnectionException || cause instanceof SQLNonTransientConnectionException
                    || cause instanceof SQLRecoverableException || cause instanceof DataAccessResourceFailureException
                    || cause instanceof CannotCreateTransactionException) {
                databaseUnreachable = true;
                return;
            }
        }
    }

    /** Runs a record's next try on a worker; if the workers are gone (stopping), its slot is released. */
    private void handOver(Runnable task) {
        try {
            workers.execute(task);
        } catch (RejectedExecutionException stopping) {
            inFlight.decrementAndGet();
        }
    }

    private BackOffExecution newBackOff() {
        ExponentialBackOff backOff = new ExponentialBackOff(settings.retryInitialBackoff().toMillis(), 2.0);
        backOff.setMaxInterval(settings.retryMaxBackoff().toMillis());
        return backOff.start();
    }

    private boolean current(TopicPartition partition, int epoch) {
        return running && epochs.getOrDefault(partition, 0) == epoch;
    }

    private void drainCompletions() {
        Completion completion;
        while ((completion = completions.poll()) != null) {
            PartitionProgress state = progress.get(completion.partition());
            if (state != null && epochs.getOrDefault(completion.partition(), 0) == completion.epoch()) {
                state.completed(completion.offset());
                completedThisRound = true;
            }
        }
    }

    private void commitCompleted() {
        commit(progress.keySet());
    }

    private void commit(Collection<TopicPartition> partitions) {
        drainCompletions();
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        for (TopicPartition partition : partitions) {
            PartitionProgress state = progress.get(partition);
            if (state != null) {
                state.toCommit().ifPresent(position -> offsets.put(partition, new OffsetAndMetadata(position)));
            }
        }
        if (offsets.isEmpty()) {
            return;
        }
        try {
            consumer.commitSync(offsets, settings.commitTimeout());
            offsets.forEach((partition, position) -> progress.get(partition).commitSucceeded(position.offset()));
        } catch (RetriableCommitFailedException | TimeoutException | RebalanceInProgressException e) {
            log.warn("commit of {} failed, retrying on the next round: {}", offsets, e.toString());
        } catch (CommitFailedException e) {
            // the group moved on: these partitions are someone else's now, and their records come again there
            log.warn("commit of {} refused by the group: {}", offsets, e.toString());
        }
    }

    private void applyBackpressure() {
        boolean globalFull = inFlight.get() >= settings.maxInFlight();
        for (TopicPartition partition : consumer.assignment()) {
            PartitionProgress state = progress.get(partition);
            boolean hold = blocked.containsKey(partition) || globalFull
                    || (state != null && state.awaitingCommit() >= settings.maxAwaitingCommitPerPartition());
            if (hold && paused.add(partition)) {
                consumer.pause(List.of(partition));
            } else if (!hold && paused.remove(partition)) {
                consumer.resume(List.of(partition));
            }
        }
    }

    private void forget(Collection<TopicPartition> partitions) {
        for (TopicPartition partition : partitions) {
            epochs.merge(partition, 1, Integer::sum);
            progress.remove(partition);
            paused.remove(partition);
            blocked.remove(partition);
        }
    }

    private void abandonAll() {
        forget(List.copyOf(progress.keySet()));
        forget(List.copyOf(blocked.keySet()));
        paused.clear();
        completions.clear();
    }

    private void closeConsumer() {
        Consumer<byte[], byte[]> current = consumer;
        if (current != null) {
            try {
                current.close(Duration.ofSeconds(5));
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

    private final class Rebalance implements ConsumerRebalanceListener {

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            // commit what the revoked partitions completed; their in-flight work is abandoned and redelivered to the new owner
            commit(partitions);
            forget(partitions);
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            for (TopicPartition partition : partitions) {
                epochs.merge(partition, 1, Integer::sum);
                progress.put(partition, new PartitionProgress());
            }
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
            forget(partitions);
        }
    }

    private record Completion(TopicPartition partition, int epoch, long offset) {
    }

    private record Work(TopicPartition partition, int epoch, ConsumerRecord<byte[], byte[]> record, Classification classification) {
    }
}

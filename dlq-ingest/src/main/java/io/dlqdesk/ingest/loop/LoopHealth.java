package io.dlqdesk.ingest.loop;

import org.apache.kafka.common.TopicPartition;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * What the ingest loop last did, for readiness, liveness and the metrics: each field is one volatile
 * value, written by the loop thread (rounds, errors) or a worker (write outcomes), read by anyone.
 * Progress means that a round ended with no record in flight or that a record left its slot; it stays
 * behind while records wait and none completes, whatever the cause.
 */
public final class LoopHealth {

    private final Clock clock;
    private volatile boolean running;
    private volatile Instant lastPoll;
    private volatile Instant lastProgress;
    private volatile Instant lastBrokerContact;
    private volatile int inFlight;
    private volatile Map<String, String> blockedPartitions = Map.of();
    private volatile String lastError;
    private volatile boolean databaseUnreachable;
    private volatile String lastWriteFailure;
    private volatile Map<TopicPartition, Long> lag = Map.of();

    public LoopHealth(Clock clock) {
        this.clock = clock;
        Instant now = clock.instant();
        lastPoll = now;
        lastProgress = now;
        lastBrokerContact = now;
    }

    void started() {
        Instant now = clock.instant();
        lastPoll = now;
        lastProgress = now;
        lastBrokerContact = now;
        running = true;
    }

    void stopped() {
        running = false;
        lag = Map.of(); // a stopped loop holds no partition
    }

    /** The end of one poll round: the heartbeat moves only here, so a loop that keeps failing goes stale. */
    void roundCompleted(int recordsInFlight, boolean recordsLeftTheirSlots, boolean brokerConnected, Map<String, String> blocked) {
        Instant now = clock.instant();
        inFlight = recordsInFlight;
        blockedPartitions = Map.copyOf(blocked);
        if (recordsLeftTheirSlots || recordsInFlight == 0) {
            lastProgress = now;
        }
        if (brokerConnected) {
            lastBrokerContact = now;
        }
        lastPoll = now;
    }

    /** Each round, from the loop thread: records behind the log end per partition it holds. */
    void lag(Map<TopicPartition, Long> byPartition) {
        lag = Map.copyOf(byPartition);
    }

    void blocked(Map<String, String> blocked) {
        blockedPartitions = Map.copyOf(blocked);
    }

    void loopFailed(String error) {
        lastError = error;
    }

    void writeSucceeded() {
        databaseUnreachable = false;
    }

    void writeFailed(WriteFailures.Kind kind, Throwable failure) {
        databaseUnreachable = kind == WriteFailures.Kind.CONNECTION;
        lastWriteFailure = kind + " " + WriteFailures.describe(failure);
    }

    /** Whether the loop thread runs (started, not stopped, not died). */
    public boolean running() {
        return running;
    }

    /** When the loop last completed a poll round. */
    public Instant lastPoll() {
        return lastPoll;
    }

    /** When a round last ended with nothing in flight, or a record in flight last left its slot. */
    public Instant lastProgress() {
        return lastProgress;
    }

    /** When the consumer last had an open connection to a broker; stays behind while no broker answers. */
    public Instant lastBrokerContact() {
        return lastBrokerContact;
    }

    /** Records holding a worker slot, as of the last round. */
    public int inFlight() {
        return inFlight;
    }

    /** Partitions held at a record (pause-partition policy), with the reason. */
    public Map<String, String> blockedPartitions() {
        return blockedPartitions;
    }

    /** The last error that escaped a poll, a commit or a rebalance callback (the consumer was recreated). */
    public String lastError() {
        return lastError;
    }

    /** Whether the latest failed write could not reach the database (cleared by any write that succeeds). */
    public boolean databaseUnreachable() {
        return databaseUnreachable;
    }

    /** The latest failed write, with its kind (CONNECTION, TRANSIENT or RECORD). */
    public String lastWriteFailure() {
        return lastWriteFailure;
    }

    /**
     * Records behind the log end per partition this loop holds, as of its last round: received and not committed
     * yet, plus those not fetched yet (the log end as the consumer last saw it: a partition paused for a while shows
     * the end of its last fetch).
     */
    public Map<TopicPartition, Long> lagByPartition() {
        return lag;
    }

    /** {@link #lagByPartition()} summed. */
    public long lag() {
        return lag.values().stream().mapToLong(Long::longValue).sum();
    }

    double pollAgeSeconds() {
        return Duration.between(lastPoll, clock.instant()).toMillis() / 1000.0;
    }
}

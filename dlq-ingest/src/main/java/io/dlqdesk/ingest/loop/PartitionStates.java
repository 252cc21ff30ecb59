package io.dlqdesk.ingest.loop;

import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The partitions this consumer holds: for each, its current {@link Assignment}, its prefix
 * ({@link PartitionProgress}), whether it is paused and whether it is held at a record. Work counts
 * only under the assignment it was received under, and nothing at or past a held record counts.
 * Owned by the loop thread (the poll loop and its rebalance callbacks): nothing here is thread-safe.
 */
final class PartitionStates {

    private final Map<TopicPartition, State> states = new HashMap<>();

    private static final class State {
        final Assignment assignment = new Assignment();
        final PartitionProgress progress = new PartitionProgress();
        boolean paused;
        /** The offset the partition is held at (pause-partition policy), or -1. */
        long heldAt = -1;
        String heldReason;

        boolean held() {
            return heldAt >= 0;
        }
    }

    /** Which partitions to pause and which to resume, as {@link #pauses} decided. */
    record Pauses(List<TopicPartition> pause, List<TopicPartition> resume) {
    }

    void assigned(Collection<TopicPartition> partitions) {
        for (TopicPartition partition : partitions) {
            end(states.put(partition, new State()));
        }
    }

    /** Revoked, lost, or the consumer is recreated: work still in flight for them is abandoned. */
    void forget(Collection<TopicPartition> partitions) {
        for (TopicPartition partition : partitions) {
            end(states.remove(partition));
        }
    }

    void forgetAll() {
        forget(List.copyOf(states.keySet()));
    }

    Collection<TopicPartition> partitions() {
        return List.copyOf(states.keySet());
    }

    /** A record arrived; the returned assignment is the one its work counts under. */
    Assignment received(TopicPartition partition, long offset) {
        State state = state(partition);
        state.progress.received(offset);
        return state.assignment;
    }

    /** A record complete without a worker (not ours). */
    void completedNow(TopicPartition partition, long offset) {
        state(partition).progress.completed(offset);
    }

    /** Whether the work counted: its assignment is current and it lies before any hold. */
    boolean completed(Work work) {
        State state = states.get(work.partition());
        if (!counts(state, work)) {
            return false;
        }
        state.progress.completed(work.offset());
        return true;
    }

    /** Whether holding at this work's record would move its partition's hold (not held yet, or held further on). */
    boolean wouldHold(Work work) {
        return counts(states.get(work.partition()), work);
    }

    boolean isHeld(TopicPartition partition) {
        State state = states.get(partition);
        return state != null && state.held();
    }

    /** The partition was paused and seeked back to {@code offset}: it is held there, and what was received from there is forgotten. */
    void held(TopicPartition partition, long offset, String reason) {
        State state = state(partition);
        state.progress.rewindTo(offset);
        state.heldAt = offset;
        state.heldReason = "offset " + offset + ": " + reason;
        state.paused = true;
    }

    Map<TopicPartition, OffsetAndMetadata> toCommit(Collection<TopicPartition> partitions) {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        for (TopicPartition partition : partitions) {
            State state = states.get(partition);
            if (state != null) {
                state.progress.toCommit().ifPresent(position -> offsets.put(partition, new OffsetAndMetadata(position)));
            }
        }
        return offsets;
    }

    void committed(Map<TopicPartition, OffsetAndMetadata> offsets) {
        offsets.forEach((partition, position) -> {
            State state = states.get(partition);
            if (state != null) {
                state.progress.commitSucceeded(position.offset());
            }
        });
    }

    /**
     * Backpressure: a partition is paused while it is held, while the in-flight bound is reached, or
     * while its own awaiting-commit bound is; the paused flags are updated to what is returned.
     */
    Pauses pauses(Collection<TopicPartition> assignment, boolean inFlightFull, int maxAwaitingCommit) {
        List<TopicPartition> pause = new ArrayList<>();
        List<TopicPartition> resume = new ArrayList<>();
        for (TopicPartition partition : assignment) {
            State state = state(partition);
            boolean hold = state.held() || inFlightFull || state.progress.awaitingCommit() >= maxAwaitingCommit;
            if (hold && !state.paused) {
                state.paused = true;
                pause.add(partition);
            } else if (!hold && state.paused) {
                state.paused = false;
                resume.add(partition);
            }
        }
        return new Pauses(pause, resume);
    }

    Map<String, String> heldPartitions() {
        Map<String, String> view = new TreeMap<>();
        states.forEach((partition, state) -> {
            if (state.held()) {
                view.put(partition.toString(), state.heldReason);
            }
        });
        return view;
    }

    Map<String, Integer> awaitingCommit() {
        Map<String, Integer> awaiting = new HashMap<>();
        states.forEach((partition, state) -> awaiting.put(partition.toString(), state.progress.awaitingCommit()));
        return awaiting;
    }

    /**
     * Records behind the log end, per partition held: received and not committed yet, plus those not fetched yet
     * ({@code notFetched}: the consumer's lag behind the log end it last saw, empty while it knows none).
     */
    Map<TopicPartition, Long> lag(Function<TopicPartition, OptionalLong> notFetched) {
        Map<TopicPartition, Long> lag = new HashMap<>();
        states.forEach((partition, state) -> lag.put(partition, state.progress.awaitingCommit() + notFetched.apply(partition).orElse(0)));
        return lag;
    }

    private State state(TopicPartition partition) {
        return states.computeIfAbsent(partition, p -> new State());
    }

    private static boolean counts(State state, Work work) {
        return state != null && state.assignment == work.assignment() && (!state.held() || work.offset() < state.heldAt);
    }

    private static void end(State state) {
        if (state != null) {
            state.assignment.end();
        }
    }
}

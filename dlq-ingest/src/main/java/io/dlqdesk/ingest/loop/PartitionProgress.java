package io.dlqdesk.ingest.loop;

import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The prefix rule for one partition. Work on a partition's records may finish in any order, but
 * the committed position may only pass records that are done: it is the end of the contiguous
 * completed prefix of the records actually received (offsets have gaps, so "contiguous" is about
 * received records, not numbers). Not thread-safe: owned by the poll loop.
 */
final class PartitionProgress {

    /** Received and not yet part of the completed prefix, in receive order. */
    private final ArrayDeque<Long> pending = new ArrayDeque<>();
    private final Set<Long> done = new HashSet<>();
    private long committable = -1;
    private long committed = -1;

    void received(long offset) {
        Long last = pending.peekLast();
        if ((last != null && offset <= last) || offset < committable) {
            throw new IllegalStateException("offset " + offset + " received out of order (after " + (last != null ? last : committable) + ")");
        }
        pending.addLast(offset);
    }

    void completed(long offset) {
        done.add(offset);
        while (!pending.isEmpty() && done.remove(pending.peekFirst())) {
            committable = pending.removeFirst() + 1;
        }
    }

    /** Forgets received records at or after {@code offset}: they were seeked back and will come again. */
    void rewindTo(long offset) {
        while (!pending.isEmpty() && pending.peekLast() >= offset) {
            done.remove(pending.removeLast());
        }
    }

    /** The position to commit (next offset to read), if it moved past what was committed. */
    OptionalLong toCommit() {
        return committable > committed ? OptionalLong.of(committable) : OptionalLong.empty();
    }

    void commitSucceeded(long position) {
        committed = Math.max(committed, position);
    }

    /** Received records not yet committable: in flight, or done behind one that is not. */
    int awaitingCommit() {
        return pending.size();
    }
}

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
    /** Records in the completed prefix whose position is not committed yet. */
    private int doneUncommitted;

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
            doneUncommitted++;
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

    /** {@code position} is what {@link #toCommit()} offered: everything done so far is now committed. */
    void commitSucceeded(long position) {
        committed = Math.max(committed, position);
        if (committed >= committable) {
            doneUncommitted = 0;
        }
    }

    /** Received records not committed yet: in flight, done behind one that is not, or done and waiting for a commit. */
    int awaitingCommit() {
        return pending.size() + doneUncommitted;
    }
}

package io.dlqdesk.rebuild;

import io.dlqdesk.projections.ReadModelSet;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.EventProcessor;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.eventhandling.tokenstore.TokenStore;
import org.axonframework.eventsourcing.eventstore.EventStorageEngine;
import org.axonframework.messaging.deadletter.SequencedDeadLetterQueue;
import org.axonframework.serialization.Serializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.transaction.support.TransactionTemplate;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

/**
 * One bulk rebuild of one read model set, from shadow tables to swap. The live tables are read and written by their
 * processor as usual until the swap; the swap pauses the processor on this instance for the last events, the token and
 * dead-letter changes and one {@code RENAME TABLE}.
 */
final class RebuildRun {

    private static final Logger log = LoggerFactory.getLogger(RebuildRun.class);
    /** Events per unit of work and transaction: each projection writes its batch once per chunk. */
    static final int CHUNK = 5_000;
    /** A catch-up pass that found fewer new events than this ends the catching up: the rest are folded during the swap. */
    private static final int FEW = 2 * CHUNK;
    private static final int MAX_CATCH_UP_PASSES = 10;
    /** The rows estimate is read from the database every this many chunks. */
    private static final int ROWS_EVERY = 10;

    private final String id;
    private final ReadModelSet set;
    private final RebuildRows rows;
    private final ShadowTables shadow;
    private final EventFold fold;
    private final EventStorageEngine events;
    private final EventProcessingConfiguration processing;
    private final TokenStore tokens;
    private final TransactionTemplate liveTransaction;
    private final Serializer serializer;
    private final BooleanSupplier stopping;

    private volatile long eventsRead;
    private long eventsEstimated;
    private long rowsWritten;
    private int chunks;

    RebuildRun(String id, ReadModelSet set, RebuildRows rows, ShadowTables shadow, EventFold fold, EventStorageEngine events,
               EventProcessingConfiguration processing, TokenStore tokens, TransactionTemplate liveTransaction, Serializer serializer,
               BooleanSupplier stopping) {
        this.id = id;
        this.set = set;
        this.rows = rows;
        this.shadow = shadow;
        this.fold = fold;
        this.events = events;
        this.processing = processing;
        this.tokens = tokens;
        this.liveTransaction = liveTransaction;
        this.serializer = serializer;
        this.stopping = stopping;
    }

    long eventsRead() {
        return eventsRead;
    }

    /** Runs every phase after PREPARING (the shadow tables created), ending COMPLETED; throws when it cannot (the row is then ended by the caller). */
    void run(long headIndex) throws InterruptedException {
        eventsEstimated = headIndex;
        rows.phase(id, RebuildPhase.PREPARING, RebuildPhase.LOADING);
        TrackingToken position = fold(null, RebuildPhase.LOADING);
        rows.phase(id, RebuildPhase.LOADING, RebuildPhase.INDEXING);
        shadow.index();
        rows.phase(id, RebuildPhase.INDEXING, RebuildPhase.CATCHING_UP);
        for (int pass = 0; pass < MAX_CATCH_UP_PASSES; pass++) {
            long before = eventsRead;
            position = fold(position, RebuildPhase.CATCHING_UP);
            if (eventsRead - before < FEW) {
                break;
            }
        }
        swap(position);
    }

    private TrackingToken fold(TrackingToken from, RebuildPhase phase) throws InterruptedException {
        TrackingToken position = from;
        try (Stream<? extends TrackedEventMessage<?>> stream = events.readEvents(from, false)) {
            Iterator<? extends TrackedEventMessage<?>> iterator = stream.iterator();
            List<TrackedEventMessage<?>> chunk = new ArrayList<>(CHUNK);
            while (iterator.hasNext()) {
                chunk.add(iterator.next());
                if (chunk.size() == CHUNK || !iterator.hasNext()) {
                    if (stopping.getAsBoolean()) {
                        throw new RebuildCancelled("the service is stopping");
                    }
                    fold.apply(chunk);
                    position = chunk.get(chunk.size() - 1).trackingToken();
                    eventsRead += chunk.size();
                    eventsEstimated = Math.max(eventsEstimated, eventsRead);
                    chunk.clear();
                    if (++chunks % ROWS_EVERY == 1) {
                        rowsWritten = shadow.rowsEstimate();
                    }
                    rows.progress(id, phase, eventsRead, eventsEstimated, rowsWritten, fold.parked().size());
                }
            }
        }
        return position;
    }

    /**
     * Pauses the processor here, folds the last events, then in one transaction stores the processor's tokens at that
     * position, replaces its groups' parked events with the fold's and marks the row SWAPPING; then renames. A restart
     * between the commit and the rename finishes the rename ({@link ReadModelRebuilds#recover}).
     */
    private void swap(TrackingToken caughtUp) throws InterruptedException {
        EventProcessor processor = processing.eventProcessor(set.processor()).orElse(null);
        boolean wasRunning = processor != null && processor.isRunning();
        if (processor != null) {
            processor.shutDown();
        }
        boolean tokensStored = false;
        boolean swapped = false;
        try {
            TrackingToken position = fold(caughtUp, RebuildPhase.CATCHING_UP);
            rowsWritten = shadow.rowsEstimate();
            rows.progress(id, RebuildPhase.CATCHING_UP, eventsRead, eventsEstimated, rowsWritten, fold.parked().size());
            liveTransaction.executeWithoutResult(status -> {
                int[] segments = tokens.fetchSegments(set.processor());
                if (segments.length == 0) {
                    throw new IllegalStateException("processor " + set.processor() + " has no tokens yet: start the service once before rebuilding");
                }
                for (int segment : segments) {
                    tokens.storeToken(position, set.processor(), segment);
                }
                for (String group : set.groups().keySet()) {
                    queue(group).clear();
                }
                for (EventFold.Parked parked : fold.parked()) {
                    queue(parked.group()).enqueue(parked.sequence(), parked.letter());
                }
                rows.swapping(id, position == null ? null : serializer.serialize(position, byte[].class).getData());
            });
            tokensStored = true;
            finishSwap(id, shadow, rows);
            swapped = true;
            log.info("bulk rebuild {} of {} swapped in: {} events, {} parked", id, set.processor(), eventsRead, fold.parked().size());
        } catch (RuntimeException e) {
            if (tokensStored) { // the tokens are at the new tables' position: the old ones must not be fed from it
                throw new SwapUnfinished("bulk rebuild " + id + " stored the tokens of " + set.processor() + " but could not rename its"
                        + " tables; the processor stays paused here until the rename is finished (retried every few seconds)", e);
            }
            throw e;
        } finally {
            if (wasRunning && (swapped || !tokensStored)) {
                processor.start();
            }
        }
    }

    /** The rename (unless done already), the row completed, the old tables dropped: after the tokens, from a run or a recovery. */
    static void finishSwap(String id, ShadowTables shadow, RebuildRows rows) {
        if (shadow.loaded()) {
            shadow.swap();
        }
        rows.phase(id, RebuildPhase.SWAPPING, RebuildPhase.COMPLETED);
        shadow.dropOld();
    }

    /** Tokens stored, tables not renamed: only a finished rename may let the processor run again. */
    static final class SwapUnfinished extends RuntimeException {
        SwapUnfinished(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private SequencedDeadLetterQueue<EventMessage<?>> queue(String group) {
        return processing.deadLetterQueue(group).orElseThrow(() -> new IllegalStateException("processing group " + group
                + " has no dead-letter queue: a rebuild cannot keep the events it parks"));
    }
}

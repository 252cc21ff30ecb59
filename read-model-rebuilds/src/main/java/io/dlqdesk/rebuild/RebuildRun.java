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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
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
    private final GroupFolds folds;
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

    RebuildRun(String id, ReadModelSet set, RebuildRows rows, ShadowTables shadow, GroupFolds folds, EventStorageEngine events,
               EventProcessingConfiguration processing, TokenStore tokens, TransactionTemplate liveTransaction, Serializer serializer,
               BooleanSupplier stopping) {
        this.id = id;
        this.set = set;
        this.rows = rows;
        this.shadow = shadow;
        this.folds = folds;
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

    /**
     * Folds from {@code from} to the store's head: a chunk is read (its payloads deserialised here) while the one before
     * it is applied by the groups.
     */
    private TrackingToken fold(TrackingToken from, RebuildPhase phase) throws InterruptedException {
        TrackingToken position = from;
        try (Stream<? extends TrackedEventMessage<?>> stream = events.readEvents(from, false)) {
            Iterator<? extends TrackedEventMessage<?>> iterator = stream.iterator();
            List<TrackedEventMessage<?>> applying = List.of();
            CompletableFuture<Void> applied = CompletableFuture.completedFuture(null);
            while (true) {
                List<TrackedEventMessage<?>> next = read(iterator);
                await(applied);
                if (!applying.isEmpty()) {
                    position = applying.get(applying.size() - 1).trackingToken();
                    progress(phase, applying.size());
                }
                if (next.isEmpty()) {
                    return position;
                }
                if (stopping.getAsBoolean()) {
                    throw new RebuildCancelled("the service is stopping");
                }
                applying = next;
                applied = folds.apply(next);
            }
        }
    }

    private static List<TrackedEventMessage<?>> read(Iterator<? extends TrackedEventMessage<?>> iterator) {
        List<TrackedEventMessage<?>> chunk = new ArrayList<>(CHUNK);
        while (chunk.size() < CHUNK && iterator.hasNext()) {
            TrackedEventMessage<?> event = iterator.next();
            event.getPayload(); // deserialised once, here, not by each group's thread
            event.getMetaData();
            chunk.add(event);
        }
        return chunk;
    }

    private static void await(CompletableFuture<Void> applied) throws InterruptedException {
        try {
            applied.get();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() instanceof CompletionException completion && completion.getCause() != null ? completion.getCause()
                    : e.getCause();
            if (cause instanceof InterruptedException interrupted) {
                throw interrupted;
            }
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException(cause);
        }
    }

    private void progress(RebuildPhase phase, int events) {
        eventsRead += events;
        eventsEstimated = Math.max(eventsEstimated, eventsRead);
        if (++chunks % ROWS_EVERY == 1) {
            rowsWritten = shadow.rowsEstimate();
        }
        rows.progress(id, phase, eventsRead, eventsEstimated, rowsWritten, folds.parkedCount());
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
            rows.progress(id, RebuildPhase.CATCHING_UP, eventsRead, eventsEstimated, rowsWritten, folds.parkedCount());
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
                for (EventFold.Parked parked : folds.parked()) {
                    queue(parked.group()).enqueue(parked.sequence(), parked.letter());
                }
                rows.swapping(id, position == null ? null : serializer.serialize(position, byte[].class).getData());
            });
            tokensStored = true;
            finishSwap(id, shadow, rows);
            swapped = true;
            log.info("bulk rebuild {} of {} swapped in: {} events, {} parked", id, set.processor(), eventsRead, folds.parkedCount());
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

    /**
     * The rename (unless done already), the row completed, the old tables dropped: after the tokens, from the run or from
     * any instance's recovery. Two of them at once are harmless: the rename is one atomic statement, so the second finds
     * it done, and completing or dropping twice changes nothing.
     */
    static void finishSwap(String id, ShadowTables shadow, RebuildRows rows) {
        if (shadow.loaded()) {
            try {
                shadow.swap();
            } catch (RuntimeException e) {
                if (shadow.loaded()) {
                    throw e;
                }
            }
        }
        rows.completeSwap(id);
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

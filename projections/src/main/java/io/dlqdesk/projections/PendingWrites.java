package io.dlqdesk.projections;

import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.axonframework.messaging.unitofwork.UnitOfWork;

import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A projection's writes pending in the current batch of events. A pooled processor handles a batch in one unit of
 * work and one transaction; handlers record their changes into one {@code B} kept in that unit of work, and it is
 * written once when the unit of work prepares to commit: inside the transaction that stores the processor's token,
 * so a batch that fails is rolled back and run again whole. Outside a unit of work an event is a batch of one.
 */
public final class PendingWrites<B> {

    private final String resource;
    private final Supplier<B> newBatch;
    private final Consumer<B> write;

    /** {@code projection} names the resource in the unit of work: one per projection. */
    public PendingWrites(String projection, Supplier<B> newBatch, Consumer<B> write) {
        this.resource = PendingWrites.class.getName() + "/" + projection;
        this.newBatch = newBatch;
        this.write = write;
    }

    /** Records one event's changes into the batch; they are written when the batch commits. */
    public void record(Consumer<B> change) {
        if (!CurrentUnitOfWork.isStarted()) {
            B single = newBatch.get();
            change.accept(single);
            write.accept(single);
            return;
        }
        UnitOfWork<?> root = CurrentUnitOfWork.get().root();
        change.accept(root.getOrComputeResource(resource, name -> {
            root.onPrepareCommit(unitOfWork -> writeBatchOf(root));
            return newBatch.get();
        }));
    }

    /** Forgets what the current batch has pending: a reset empties the tables it was meant for. */
    public void discard() {
        CurrentUnitOfWork.ifStarted(unitOfWork -> unitOfWork.root().resources().remove(resource));
    }

    private void writeBatchOf(UnitOfWork<?> root) {
        @SuppressWarnings("unchecked")
        B batch = (B) root.resources().remove(resource);
        if (batch != null) { // null: discarded by a reset
            write.accept(batch);
        }
    }
}

package io.dlqdesk.projections;

import io.dlqdesk.parked.Culprits;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.messaging.deadletter.DeadLetter;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.axonframework.messaging.unitofwork.UnitOfWork;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A projection's writes pending in the current batch of events. A pooled processor handles a batch in one unit of
 * work and one transaction; handlers record their changes into one {@code B} kept in that unit of work, and it is
 * written once when the unit of work prepares to commit: inside the transaction that stores the processor's token,
 * so a batch that fails is rolled back and run again. Outside a unit of work an event is a batch of one.
 * <p>
 * A write that fails at commit fails no handler, so Axon's dead-letter queue could not park anything and the batch would
 * fail for ever. So a batch whose write fails names its events suspects, and when the processor runs them again each
 * suspect is written alone, inside its own handler and a savepoint of the batch's transaction: the one event that cannot
 * be written fails its handler, the queue parks it (and its aggregate's later events), the savepoint takes back whatever
 * it half wrote, and the rest of the batch commits. An event retried from the queue is written alone the same way.
 */
public final class PendingWrites<B> {

    private static final String RETRIED_LETTER = DeadLetter.class.getName();

    private final String resource;
    private final DataSource dataSource;
    private final Supplier<B> newBatch;
    private final Consumer<B> write;
    private final Culprits suspects = new Culprits();

    /** {@code projection} names the resource in the unit of work: one per projection. */
    public PendingWrites(String projection, DataSource dataSource, Supplier<B> newBatch, Consumer<B> write) {
        this.resource = PendingWrites.class.getName() + "/" + projection;
        this.dataSource = dataSource;
        this.newBatch = newBatch;
        this.write = write;
    }

    /** Records a change into the batch, or writes it at once when there is no batch or the event must be written alone. */
    public void record(Consumer<B> change) {
        if (!CurrentUnitOfWork.isStarted()) {
            B single = newBatch.get();
            change.accept(single);
            write.accept(single);
            return;
        }
        UnitOfWork<?> current = CurrentUnitOfWork.get();
        String eventId = current.getMessage() instanceof EventMessage<?> event ? event.getIdentifier() : null;
        boolean suspect = eventId != null && suspects.isMarked(eventId);
        if (suspect || current.getResource(RETRIED_LETTER) != null) {
            B single = newBatch.get();
            change.accept(single);
            writeAlone(single);
            if (suspect) { // all its writes alone until its batch is through
                suspects.forgetOnCommit(eventId, current.root());
            }
            return;
        }
        UnitOfWork<?> root = current.root();
        Pending<B> pending = root.getOrComputeResource(resource, name -> {
            root.onPrepareCommit(unitOfWork -> writeBatchOf(root));
            return new Pending<>(newBatch.get());
        });
        change.accept(pending.batch);
        if (eventId != null) {
            pending.eventIds.add(eventId);
        }
    }

    /** Forgets what the current batch has pending: a reset empties the tables it was meant for. */
    public void discard() {
        CurrentUnitOfWork.ifStarted(unitOfWork -> unitOfWork.root().resources().remove(resource));
    }

    private void writeBatchOf(UnitOfWork<?> root) {
        @SuppressWarnings("unchecked")
        Pending<B> pending = (Pending<B>) root.resources().remove(resource);
        if (pending == null) { // discarded by a reset
            return;
        }
        try {
            write.accept(pending.batch);
        } catch (RuntimeException e) {
            suspects.mark(pending.eventIds);
            throw e;
        }
    }

    /** In a savepoint when a transaction is active, so a failed write leaves nothing behind in it. */
    private void writeAlone(B single) {
        if (!TransactionSynchronizationManager.isActualTransactionActive()) {
            write.accept(single);
            return;
        }
        Connection connection = DataSourceUtils.getConnection(dataSource);
        try {
            Savepoint savepoint = savepoint(connection);
            try {
                write.accept(single);
            } catch (RuntimeException e) {
                try {
                    connection.rollback(savepoint);
                } catch (SQLException rollback) {
                    e.addSuppressed(rollback);
                }
                throw e;
            }
            release(connection, savepoint);
        } finally {
            DataSourceUtils.releaseConnection(connection, dataSource);
        }
    }

    private static Savepoint savepoint(Connection connection) {
        try {
            return connection.setSavepoint();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot set a savepoint to write one event alone", e);
        }
    }

    /** A savepoint the transaction no longer needs: released, or the connection keeps one per event until commit. */
    private static void release(Connection connection, Savepoint savepoint) {
        try {
            connection.releaseSavepoint(savepoint);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot release the savepoint of an event written alone", e);
        }
    }

    private static final class Pending<B> {
        private final B batch;
        private final List<String> eventIds = new ArrayList<>();

        private Pending(B batch) {
            this.batch = batch;
        }
    }
}

package io.dlqdesk.parked;

import io.dlqdesk.domain.parked.EventParked;
import io.dlqdesk.domain.parked.ParkedEvent;
import io.dlqdesk.domain.record.BoundedText;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.deadletter.jdbc.JdbcDeadLetter;
import org.axonframework.messaging.MetaData;
import org.axonframework.messaging.deadletter.DeadLetter;
import org.axonframework.messaging.deadletter.Decisions;
import org.axonframework.messaging.deadletter.EnqueueDecision;
import org.axonframework.messaging.deadletter.EnqueuePolicy;
import org.axonframework.messaging.deadletter.GenericDeadLetter;
import org.axonframework.messaging.deadletter.ThrowableCause;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.transaction.TransactionException;

import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import java.time.Clock;
import java.util.function.Consumer;

/**
 * Decides what happens to an event a processing group's handler failed on. Axon asks on the first failure; this makes it
 * a bounded retry: the failure is thrown on (the batch runs again after the processor's back-off) until the event has
 * failed {@code attempts} times, then the event is parked with its sequence, its full stack trace logged and an
 * {@link EventParked} announced. A failure that is not the event's own (the database or the broker away, a batch that
 * must run again) is thrown on without counting: parking cannot help it, and while the database is away parking cannot
 * work anyway. An admin's retry of a parked event that fails again leaves it parked, one attempt more.
 */
public final class ParkingPolicy {

    static final String ATTEMPTS = "attempts";
    static final String PARKED_AT = "parkedAt";

    private static final Logger log = LoggerFactory.getLogger(ParkingPolicy.class);
    private static final int CAUSE_DEPTH = 20;

    private final int attempts;
    private final FailedAttempts failures;
    private final Clock clock;

    public ParkingPolicy(int attempts, Clock clock) {
        if (attempts < 1) {
            throw new IllegalArgumentException("attempts must be at least 1, was " + attempts);
        }
        this.attempts = attempts;
        this.failures = new FailedAttempts(100_000);
        this.clock = clock;
    }

    /** The policy of {@code processingGroup}; {@code announce} publishes the event that says one was parked. */
    public EnqueuePolicy<EventMessage<?>> forGroup(String processingGroup, Consumer<EventParked> announce) {
        return (letter, failure) -> decide(processingGroup, letter, failure, announce);
    }

    private EnqueueDecision<EventMessage<?>> decide(String group, DeadLetter<? extends EventMessage<?>> letter, Throwable failure,
                                                    Consumer<EventParked> announce) {
        EventMessage<?> event = letter.message();
        if (letter instanceof JdbcDeadLetter<?>) {
            int tried = attemptsOf(letter.diagnostics()) + 1;
            log.warn("parked event {} ({}) of sequence {} failed again in processing group {} (attempt {}); it stays parked",
                    event.getIdentifier(), event.getPayloadType().getSimpleName(), ((JdbcDeadLetter<?>) letter).getSequenceIdentifier(),
                    group, tried, failure);
            return Decisions.requeue(cause(failure), parked -> parked.diagnostics().and(ATTEMPTS, tried));
        }
        if (notTheEventsOwn(failure)) {
            throw failure instanceof RetryBatch retry ? retry
                    : new RetryBatch("processing group " + group + " could not handle event " + event.getIdentifier()
                    + " for a reason not its own; the batch runs again", failure);
        }
        int failed = failures.failed(group, event.getIdentifier());
        if (failed < attempts) {
            throw new RetryBatch("processing group " + group + " failed on event " + event.getIdentifier() + " ("
                    + event.getPayloadType().getSimpleName() + "), attempt " + failed + " of " + attempts + "; the batch runs again",
                    failure);
        }
        forgetOnceParked(group, event.getIdentifier());
        String sequence = String.valueOf(letter instanceof GenericDeadLetter<?> generic ? generic.getSequenceIdentifier() : event.getIdentifier());
        log.error("processing group {} parked event {} ({}) of sequence {} after {} attempts: the group's later events of this"
                        + " sequence wait behind it, every other sequence flows; retry or evict it (GET /api/v1/parked-events)",
                group, event.getIdentifier(), event.getPayloadType().getSimpleName(), sequence, failed, failure);
        ThrowableCause cause = cause(failure);
        if (!(event.getPayload() instanceof EventParked)) { // an announcement that cannot be handled is not announced again
            try {
                announce.accept(new EventParked(new ParkedEvent(group, sequence, event.getIdentifier(), event.getPayloadType().getName()),
                        cause.type(), cause.message(), failed, clock.instant()));
            } catch (RuntimeException e) { // the event is parked all the same: the gauge and the list still show it
                log.error("event {} parked by processing group {} could not be announced", event.getIdentifier(), group, e);
            }
        }
        return Decisions.enqueue(cause, parked -> MetaData.with(ATTEMPTS, failed).and(PARKED_AT, clock.instant().toString()));
    }

    /**
     * The count goes once the parking is stored. A batch that fails on a later event after this one was parked rolls the
     * parking back with it: the count stays, so this event parks at once when the batch runs again, instead of starting
     * over (two culprits in one batch would otherwise take turns undoing each other's parking).
     */
    private void forgetOnceParked(String group, String eventIdentifier) {
        if (CurrentUnitOfWork.isStarted()) {
            CurrentUnitOfWork.get().root().afterCommit(unitOfWork -> failures.forget(group, eventIdentifier));
        } else {
            failures.forget(group, eventIdentifier);
        }
    }

    /** The attempts recorded on a parked event: those before it was parked, and one for each failed retry. */
    static int attemptsOf(MetaData diagnostics) {
        Object value = diagnostics.get(ATTEMPTS);
        return value instanceof Number number ? number.intValue() : 0; // an event parked behind another was never tried
    }

    /** The database, the broker or the transaction away, or a batch that asked to run again. */
    static boolean notTheEventsOwn(Throwable failure) {
        Throwable current = failure;
        for (int depth = 0; current != null && depth < CAUSE_DEPTH; depth++, current = current.getCause()) {
            if (current instanceof RetryBatch || current instanceof TransientDataAccessException
                    || current instanceof RecoverableDataAccessException || current instanceof DataAccessResourceFailureException
                    || current instanceof TransactionException || current instanceof SQLTransientException
                    || current instanceof SQLRecoverableException || current instanceof InterruptedException) {
                return true;
            }
        }
        return false;
    }

    /**
     * As the parked-event table holds it, each cut to its column: the class name, and the message of the deepest cause
     * (a wrapper's message is often the statement, its cause's says why) with that cause's class.
     */
    static ThrowableCause cause(Throwable failure) {
        Throwable root = failure;
        for (int depth = 0; root.getCause() != null && root.getCause() != root && depth < CAUSE_DEPTH; depth++) {
            root = root.getCause();
        }
        String message = root == failure ? failure.getMessage() : root.getClass().getName() + ": " + root.getMessage();
        return new ThrowableCause(BoundedText.truncate(failure.getClass().getName(), EventParked.MAX_CAUSE_TYPE_LENGTH),
                message == null ? null : BoundedText.truncate(message, EventParked.MAX_CAUSE_MESSAGE_LENGTH));
    }
}

package io.dlqdesk.rebuild;

import io.dlqdesk.domain.parked.EventParked;
import io.dlqdesk.parked.ParkingPolicy;
import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.EventMessageHandler;
import org.axonframework.messaging.deadletter.DeadLetter;
import org.axonframework.messaging.deadletter.EnqueueDecision;
import org.axonframework.messaging.deadletter.EnqueuePolicy;
import org.axonframework.messaging.deadletter.GenericDeadLetter;
import org.axonframework.messaging.unitofwork.BatchingUnitOfWork;
import org.axonframework.messaging.ResultMessage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Folds events into one processing group's tables with the same event handlers its processor runs, without the processor:
 * a chunk of events is one unit of work and one transaction, so each projection writes its batch once per chunk as it does
 * once per processor batch. Failures are treated as the processor's dead-letter queue treats them: an event a group cannot
 * handle is decided by the same {@link ParkingPolicy} (the chunk runs again until the event has failed its attempts, then it
 * is parked), and the group's later events of the same sequence (aggregate) are parked behind it. The parked letters and
 * their announcements are kept here until the swap puts them in the groups' queues.
 */
final class EventFold {

    private static final Logger log = LoggerFactory.getLogger(EventFold.class);
    /** A chunk that keeps failing for a reason not an event's own (the database away) fails the rebuild after this many. */
    private static final int MAX_TRIES = 8;

    private final String group;
    private final EventMessageHandler handler;
    private final TransactionManager transactions;
    private final ParkingPolicy policy;
    private final Set<Object> parkedSequences = new HashSet<>();
    private final List<Parked> parked = new ArrayList<>();
    private final List<EventParked> announcements = new ArrayList<>();

    /** A letter for a group's queue. */
    record Parked(String group, Object sequence, DeadLetter<? extends EventMessage<?>> letter) {
    }

    EventFold(String group, EventMessageHandler handler, TransactionManager transactions, ParkingPolicy policy) {
        this.group = group;
        this.handler = handler;
        this.transactions = transactions;
        this.policy = policy;
    }

    /** Applies a chunk in one transaction, running it again while it fails, parking as the policy decides. */
    void apply(List<? extends EventMessage<?>> chunk) throws InterruptedException {
        Throwable last = null;
        for (int attempt = 1; attempt <= MAX_TRIES; attempt++) {
            Attempt tried = new Attempt();
            BatchingUnitOfWork<EventMessage<?>> unitOfWork = new BatchingUnitOfWork<>(new ArrayList<>(chunk));
            unitOfWork.attachTransaction(transactions);
            ResultMessage<?> result = unitOfWork.executeWithResult(() -> {
                handle(unitOfWork.getMessage(), tried);
                return null;
            }, failure -> true);
            if (!result.isExceptional()) {
                tried.keep();
                return;
            }
            last = result.exceptionResult();
            log.debug("a chunk of {} events failed (try {} of {}); it runs again", chunk.size(), attempt, MAX_TRIES, last);
            if (attempt > 3) { // the policy's own tries run without waiting; a reason not the events' own gets time to pass
                Thread.sleep(Duration.ofSeconds(Math.min(5, attempt - 3)).toMillis());
            }
        }
        throw new IllegalStateException("a chunk of " + chunk.size() + " events failed " + MAX_TRIES + " times", last);
    }

    List<Parked> parked() {
        return List.copyOf(parked);
    }

    int parkedCount() {
        return parked.size();
    }

    List<EventParked> announcements() {
        return List.copyOf(announcements);
    }

    private void handle(EventMessage<?> event, Attempt tried) throws Exception {
        if (!handler.canHandle(event)) {
            return;
        }
        Object sequence = event instanceof DomainEventMessage<?> domain ? domain.getAggregateIdentifier() : event.getIdentifier();
        if (tried.isParked(sequence)) {
            tried.park(sequence, new GenericDeadLetter<>(sequence, event));
            return;
        }
        try {
            handler.handle(event);
        } catch (Exception e) {
            DeadLetter<EventMessage<?>> letter = new GenericDeadLetter<>(sequence, event, e);
            EnqueuePolicy<EventMessage<?>> groupPolicy = policy.forGroup(group, tried.announced::add);
            EnqueueDecision<EventMessage<?>> decision = groupPolicy.decide(letter, e); // throws when the chunk must run again
            if (decision.shouldEnqueue()) {
                tried.park(sequence, decision.withDiagnostics(letter.withCause(decision.enqueueCause().orElse(null))));
            }
        }
    }

    /** What one try of a chunk parked: kept only when the chunk commits. */
    private final class Attempt {
        private final Set<Object> sequences = new HashSet<>();
        private final List<Parked> letters = new ArrayList<>();
        private final List<EventParked> announced = new ArrayList<>();

        boolean isParked(Object sequence) {
            return parkedSequences.contains(sequence) || sequences.contains(sequence);
        }

        void park(Object sequence, DeadLetter<? extends EventMessage<?>> letter) {
            sequences.add(sequence);
            letters.add(new Parked(group, sequence, letter));
        }

        void keep() {
            parkedSequences.addAll(sequences);
            parked.addAll(letters);
            announcements.addAll(announced);
        }
    }
}

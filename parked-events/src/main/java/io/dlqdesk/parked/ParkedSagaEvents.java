package io.dlqdesk.parked;

import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.config.Configuration;
import org.axonframework.config.Configurer;
import org.axonframework.config.ConfigurerModule;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.EventMessageHandler;
import org.axonframework.eventhandling.ListenerInvocationErrorHandler;
import org.axonframework.eventhandling.Segment;
import org.axonframework.eventhandling.deadletter.jdbc.JdbcSequencedDeadLetterQueue;
import org.axonframework.eventhandling.tokenstore.TokenStore;
import org.axonframework.messaging.ResultMessage;
import org.axonframework.messaging.deadletter.DeadLetter;
import org.axonframework.messaging.deadletter.Decisions;
import org.axonframework.messaging.deadletter.EnqueueDecision;
import org.axonframework.messaging.deadletter.EnqueuePolicy;
import org.axonframework.messaging.deadletter.GenericDeadLetter;
import org.axonframework.messaging.deadletter.SequencedDeadLetterProcessor;
import org.axonframework.messaging.deadletter.SequencedDeadLetterQueue;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.axonframework.messaging.unitofwork.DefaultUnitOfWork;
import org.axonframework.messaging.unitofwork.UnitOfWork;
import org.axonframework.modelling.saga.AbstractSagaManager;

import javax.sql.DataSource;
import java.util.function.Predicate;

/**
 * Axon 4 gives a saga no dead-letter queue (its manager is never the dead-lettering invoker), so a saga's processing group
 * gets this one, in the same table: a saga handler that fails is tried the bounded number of times (its batch runs
 * again), then its event is parked and the saga's processor goes on. Unlike a queue of Axon's own, later events of the
 * same aggregate are not held back: each saga handler must stay safe to run out of order (see the replay saga). A retry
 * hands the parked event to the saga manager of every segment, as the processor does, so the saga that owns it is found.
 */
public final class ParkedSagaEvents implements ConfigurerModule, SequencedDeadLetterProcessor<EventMessage<?>> {

    /** Marks a unit of work that retries a parked event: its failure goes back to the retry, not to parking. */
    private static final String RETRYING = ParkedSagaEvents.class.getName() + "/retrying";

    private final String processingGroup;
    private final Class<?> sagaType;
    private final DataSource dataSource;
    private final ParkingPolicy policy;
    private final ParkedEventProperties properties;
    private volatile Configuration configuration;
    private volatile JdbcSequencedDeadLetterQueue<EventMessage<?>> queue;

    /** {@code processingGroup}: the saga's group, which is also its processor's name. */
    public ParkedSagaEvents(String processingGroup, Class<?> sagaType, DataSource dataSource, ParkingPolicy policy,
                            ParkedEventProperties properties) {
        this.processingGroup = processingGroup;
        this.sagaType = sagaType;
        this.dataSource = dataSource;
        this.policy = policy;
        this.properties = properties;
    }

    public String processingGroup() {
        return processingGroup;
    }

    @Override
    public void configureModule(Configurer configurer) {
        configurer.onInitialize(config -> this.configuration = config);
        configurer.eventProcessing().registerListenerInvocationErrorHandler(processingGroup, config -> new ParkingErrorHandler());
    }

    /** The saga's queue. */
    public SequencedDeadLetterQueue<EventMessage<?>> queue() {
        JdbcSequencedDeadLetterQueue<EventMessage<?>> built = queue;
        if (built == null) {
            built = ParkedEventQueues.queue(processingGroup, configuration(), dataSource, properties);
            queue = built;
        }
        return built;
    }

    @Override
    public boolean process(Predicate<DeadLetter<? extends EventMessage<?>>> sequenceFilter) {
        return queue().process(sequenceFilter, this::retry);
    }

    @Override
    public boolean processAny() {
        return process(letter -> true);
    }

    /** Runs the parked event through the saga manager of every segment, in a unit of work and transaction of its own. */
    private EnqueueDecision<EventMessage<?>> retry(DeadLetter<? extends EventMessage<?>> letter) {
        Configuration config = configuration();
        var saga = config.eventProcessingConfiguration().sagaConfiguration(sagaType);
        if (saga == null) {
            throw new IllegalStateException("no saga " + sagaType.getName() + " is configured");
        }
        AbstractSagaManager<?> manager = saga.manager();
        TokenStore tokens = config.eventProcessingConfiguration().tokenStore(processingGroup);
        TransactionManager transactions = config.getComponent(TransactionManager.class);
        UnitOfWork<? extends EventMessage<?>> unitOfWork = DefaultUnitOfWork.startAndGet(letter.message());
        unitOfWork.attachTransaction(transactions);
        unitOfWork.resources().put(RETRYING, letter);
        ResultMessage<?> result = unitOfWork.executeWithResult(() -> {
            int[] segments = tokens.fetchSegments(processingGroup);
            for (int segment : segments.length == 0 ? new int[] {0} : segments) {
                manager.handle(letter.message(), segments.length == 0 ? Segment.ROOT_SEGMENT : Segment.computeSegment(segment, segments));
            }
            return null;
        });
        if (result.isExceptional()) {
            return policy().decide(letter, result.exceptionResult());
        }
        return Decisions.evict();
    }

    private EnqueuePolicy<EventMessage<?>> policy() {
        Configuration config = configuration();
        return policy.forGroup(processingGroup, parked -> ParkedEventQueues.announce(config, parked));
    }

    private Configuration configuration() {
        Configuration config = configuration;
        if (config == null) {
            throw new IllegalStateException("Axon's configuration is not initialised yet");
        }
        return config;
    }

    /** The sequence a saga event is parked under: its aggregate, or the event itself. */
    private static String sequenceOf(EventMessage<?> event) {
        return event instanceof DomainEventMessage<?> domain && domain.getAggregateIdentifier() != null
                ? domain.getAggregateIdentifier() : event.getIdentifier();
    }

    /** Called by the saga manager when a saga handler throws. */
    private final class ParkingErrorHandler implements ListenerInvocationErrorHandler {

        @Override
        public void onError(Exception exception, EventMessage<?> event, EventMessageHandler handler) throws Exception {
            if (CurrentUnitOfWork.isStarted() && CurrentUnitOfWork.get().getResource(RETRYING) != null) {
                throw exception; // a retry's failure: the retry keeps it parked
            }
            String sequence = sequenceOf(event);
            EnqueueDecision<EventMessage<?>> decision = policy().decide(new GenericDeadLetter<>(sequence, event, exception), exception);
            if (decision.shouldEnqueue()) {
                DeadLetter<EventMessage<?>> letter = new GenericDeadLetter<>(sequence, event, decision.enqueueCause().orElse(exception));
                queue().enqueue(sequence, decision.withDiagnostics(letter));
            }
        }
    }
}

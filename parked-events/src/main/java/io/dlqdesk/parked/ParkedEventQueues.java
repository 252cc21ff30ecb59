package io.dlqdesk.parked;

import io.dlqdesk.domain.parked.EventParked;
import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.config.Configuration;
import org.axonframework.config.Configurer;
import org.axonframework.config.ConfigurerModule;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.GenericEventMessage;
import org.axonframework.eventhandling.deadletter.jdbc.JdbcSequencedDeadLetterQueue;
import org.axonframework.spring.jdbc.SpringDataSourceConnectionProvider;

import javax.sql.DataSource;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Gives each of {@code groups} Axon's sequenced dead-letter queue in the parked-event table, this policy and a
 * sequence-identifier cache (so an empty queue costs a processor no query per event). A reset of a group empties its
 * queue: the rebuild handles those events again. Events are sequenced per aggregate (Axon's default), so a parked event
 * holds back only its own aggregate's later events.
 */
public final class ParkedEventQueues implements ConfigurerModule {

    /** A sequence's letters read per query. */
    static final int PAGE_SIZE = 100;

    private final Set<String> groups;
    private final DataSource dataSource;
    private final ParkingPolicy policy;
    private final ParkedEventProperties properties;

    public ParkedEventQueues(Set<String> groups, DataSource dataSource, ParkingPolicy policy, ParkedEventProperties properties) {
        this.groups = new TreeSet<>(groups);
        this.dataSource = dataSource;
        this.policy = policy;
        this.properties = properties;
    }

    /** The processing groups that have a queue, in name order. */
    public List<String> groups() {
        return List.copyOf(groups);
    }

    @Override
    public void configureModule(Configurer configurer) {
        for (String group : groups) {
            configurer.eventProcessing()
                    .registerDeadLetterQueue(group, config -> queue(group, config, dataSource, properties))
                    .registerDeadLetterPolicy(group, config -> policy.forGroup(group, parked -> announce(config, parked)))
                    .registerDeadLetteringEventHandlerInvokerConfiguration(group,
                            (config, invoker) -> invoker.enableSequenceIdentifierCache().allowReset(true));
        }
    }

    /** The queue of {@code group} in the parked-event table, Axon's or a saga's ({@link ParkedSagaEvents}). */
    static JdbcSequencedDeadLetterQueue<EventMessage<?>> queue(String group, Configuration config, DataSource dataSource,
                                                               ParkedEventProperties properties) {
        return JdbcSequencedDeadLetterQueue.builder()
                .processingGroup(group)
                .connectionProvider(new SpringDataSourceConnectionProvider(dataSource))
                .transactionManager(config.getComponent(TransactionManager.class))
                .schema(ParkedEventTable.SCHEMA)
                .statementFactory(ParkedEventTable.statements(config.serializer(), config.eventSerializer(), PAGE_SIZE))
                .genericSerializer(config.serializer())
                .eventSerializer(config.eventSerializer())
                .maxSequences(properties.maxSequences())
                .maxSequenceSize(properties.maxSequenceSize())
                .pageSize(PAGE_SIZE)
                .build();
    }

    /** Published in the unit of work that parks the event: it is stored exactly when the parking is. */
    static void announce(Configuration config, EventParked parked) {
        config.eventBus().publish(GenericEventMessage.asEventMessage(parked));
    }
}

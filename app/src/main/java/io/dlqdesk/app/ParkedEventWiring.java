package io.dlqdesk.app;

import io.dlqdesk.parked.ParkedEventProperties;
import io.dlqdesk.parked.ParkedEventQueues;
import io.dlqdesk.parked.ParkedEvents;
import io.dlqdesk.parked.ParkedSagaEvents;
import io.dlqdesk.parked.ParkingPolicy;
import io.dlqdesk.parked.ProcessorProperties;
import io.dlqdesk.parked.ProcessorStalls;
import io.dlqdesk.replay.outbox.OutboxRowOnRequest;
import io.dlqdesk.replay.saga.ReplaySaga;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.gateway.EventGateway;
import org.axonframework.extensions.kafka.KafkaProperties;
import org.axonframework.serialization.Serializer;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import javax.sql.DataSource;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Every event processing group gets a dead-letter queue for the events it cannot handle (parked-events): Axon's own, or for
 * the replay saga, to which Axon 4 gives none, ours ({@link ParkedSagaEvents}). The outbox row's subscribing group has
 * none: it runs in the request's own transaction so that its failure fails the request.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({ParkedEventProperties.class, ProcessorProperties.class})
class ParkedEventWiring {

    static final Set<String> WITHOUT_QUEUE = Set.of(ReplaySaga.PROCESSING_GROUP, OutboxRowOnRequest.PROCESSING_GROUP);

    @Bean
    ParkingPolicy parkingPolicy(ParkedEventProperties properties) {
        return new ParkingPolicy(properties.attempts(), Clock.systemUTC());
    }

    /** The groups of every event handler bean, and the Kafka publisher's when it publishes. */
    @Bean
    ParkedEventQueues parkedEventQueues(ListableBeanFactory beans, ObjectProvider<KafkaProperties> kafka, DataSource dataSource,
                                        ParkingPolicy policy, ParkedEventProperties properties,
                                        @Value("${axon.kafka.publisher.enabled:true}") boolean publishing) {
        Set<String> groups = new TreeSet<>();
        for (String name : beans.getBeanNamesForAnnotation(ProcessingGroup.class)) {
            ProcessingGroup group = beans.findAnnotationOnBean(name, ProcessingGroup.class);
            if (group != null) {
                groups.add(group.value());
            }
        }
        if (publishing) {
            kafka.ifAvailable(axonKafka -> groups.add(axonKafka.getPublisher().getProcessingGroup()));
        }
        groups.removeAll(WITHOUT_QUEUE);
        return new ParkedEventQueues(groups, dataSource, policy, properties);
    }

    /** Readiness component {@code eventProcessors}: a segment of this instance, or nobody's, standing still while events wait. */
    @Bean
    HealthIndicator eventProcessorsHealthIndicator(ObjectProvider<EventProcessingConfiguration> processing, DataSource dataSource,
                                                   Serializer serializer, ProcessorProperties properties) {
        JdbcTemplate reads = new JdbcTemplate(dataSource);
        reads.setQueryTimeout(2); // a probe must answer, database or not
        TokenPositions tokens = new TokenPositions(reads, serializer);
        return new ProcessorStalls(() -> ProcessorStalls.heldHere(processing.getObject()), tokens::read, tokens::eventStoreHead,
                properties.stallTimeout(), Clock.systemUTC());
    }

    /** The replay saga's own queue (Axon 4 gives sagas none); its handlers are safe to run out of order (ReplaySaga). */
    @Bean
    ParkedSagaEvents parkedReplaySagaEvents(DataSource dataSource, ParkingPolicy policy, ParkedEventProperties properties) {
        return new ParkedSagaEvents(ReplaySaga.PROCESSING_GROUP, ReplaySaga.class, dataSource, policy, properties);
    }

    @Bean
    ParkedEvents parkedEvents(JdbcTemplate jdbc, ObjectProvider<EventProcessingConfiguration> processing, EventGateway events,
                              PlatformTransactionManager transactionManager, @Qualifier("eventSerializer") Serializer eventSerializer,
                              ParkedEventQueues queues, ParkedSagaEvents saga) {
        List<String> groups = new ArrayList<>(queues.groups());
        groups.add(saga.processingGroup());
        Collections.sort(groups);
        return new ParkedEvents(jdbc, processing::getObject, ParkedEvents.Queues.of(processing::getObject, List.of(saga)), events,
                new TransactionTemplate(transactionManager), eventSerializer, groups);
    }
}

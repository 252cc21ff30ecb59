package io.dlqdesk.app;

import io.dlqdesk.parked.ParkedEventProperties;
import io.dlqdesk.parked.ParkedEventQueues;
import io.dlqdesk.parked.ParkedEvents;
import io.dlqdesk.parked.ParkingPolicy;
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
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import javax.sql.DataSource;
import java.time.Clock;
import java.util.Set;
import java.util.TreeSet;

/**
 * Every event processing group gets a dead-letter queue for the events it cannot handle (parked-events). Two have none:
 * the replay saga, which Axon 4 gives none (see {@code ReplaySagaFailures}), and the outbox row's subscribing group, which
 * runs in the request's own transaction so that its failure fails the request.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ParkedEventProperties.class)
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

    @Bean
    ParkedEvents parkedEvents(JdbcTemplate jdbc, ObjectProvider<EventProcessingConfiguration> processing, EventGateway events,
                              PlatformTransactionManager transactionManager, @Qualifier("eventSerializer") Serializer eventSerializer,
                              ParkedEventQueues queues) {
        return new ParkedEvents(jdbc, processing::getObject, events, new TransactionTemplate(transactionManager), eventSerializer,
                queues.groups());
    }
}

package io.dlqdesk.app;

import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.dlqdesk.domain.Incident;
import org.axonframework.commandhandling.CommandBus;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.commandhandling.gateway.DefaultCommandGateway;
import org.axonframework.config.ConfigurerModule;
import org.axonframework.eventhandling.PropagatingErrorHandler;
import org.axonframework.messaging.StreamableMessageSource;
import org.axonframework.serialization.Serializer;
import org.axonframework.serialization.json.JacksonSerializer;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;
import org.springframework.jdbc.core.JdbcTemplate;

import javax.sql.DataSource;
import java.time.Duration;

/**
 * Axon without Axon Server: token and saga stores on JPA in MySQL (Axon's Spring Boot
 * auto-configuration, with the schema from Flyway), Jackson for every serializer, the aggregate
 * registered here so that the domain module needs no Spring. The event store: {@link EventStoreWiring}.
 */
@Configuration(proxyBeanMethods = false)
class AxonWiring {

    @Bean
    ConfigurerModule incidentAggregate() {
        return configurer -> configurer.configureAggregate(Incident.class);
    }

    /**
     * An event handler that fails is retried by its processor, never logged and skipped (Axon's
     * default): a read model must not silently miss an event.
     */
    @Bean
    ConfigurerModule eventHandlerFailuresArePropagated() {
        return configurer -> configurer.eventProcessing()
                .registerDefaultListenerInvocationErrorHandler(config -> PropagatingErrorHandler.instance());
    }

    /**
     * The Kafka publisher's processor starts at the tail of the store as a plain (non-replay)
     * token: with Axon's default start behind a replay marker, the publisher skipped every event
     * stored before its first start. It publishes up to {@value #PUBLISHER_BATCH} events per
     * transaction (the extension's default is one event, one token update, one fsync); after a failed
     * batch those events are sent again, which consumers of the events topic already allow for (they
     * deduplicate by message id). Four segments keep each segment's queue short.
     */
    @Bean
    ConfigurerModule kafkaPublisherStartsAtTail(@Value("${axon.kafka.publisher.processing-group}") String publisherGroup) {
        return configurer -> configurer.eventProcessing().registerPooledStreamingEventProcessorConfiguration(publisherGroup,
                (config, builder) -> builder.initialToken(StreamableMessageSource::createTailToken).batchSize(PUBLISHER_BATCH)
                        .initialSegmentCount(4));
    }

    static final int PUBLISHER_BATCH = 100;

    /**
     * Commands that lost a race on the event store to another instance are dispatched again (up to 5 times), after
     * 20, 40, 80, 100, 100 ms plus up to 20 ms jitter: about the old linear 20 ms steps, the last pause as before.
     */
    @Bean
    EventStoreConflictRetry eventStoreConflictRetry() {
        return new EventStoreConflictRetry(5, Duration.ofMillis(20), Duration.ofMillis(100));
    }

    @Bean
    CommandGateway commandGateway(CommandBus commandBus, EventStoreConflictRetry retry) {
        return DefaultCommandGateway.builder().commandBus(commandBus).retryScheduler(retry).build();
    }

    @Bean
    AxonStartLock axonStartLock(DataSource dataSource) {
        return new AxonStartLock(dataSource, Duration.ofMinutes(2));
    }

    @Bean
    SmartLifecycle axonStartLockTaken(AxonStartLock lock) {
        return lock.acquiring();
    }

    @Bean
    SmartLifecycle axonStartLockReleased(AxonStartLock lock) {
        return lock.releasing();
    }

    @Bean
    InstanceRegistry instanceRegistry(JdbcTemplate jdbc, InstanceProperties properties) {
        return new InstanceRegistry(jdbc, properties);
    }

    /** Every pooled processor, the Kafka publisher's included, claims at most this instance's share of its segments. */
    @Bean
    ConfigurerModule processorsClaimTheirShare(InstanceRegistry instances) {
        return configurer -> configurer.eventProcessing().registerPooledStreamingEventProcessorConfiguration(
                (config, builder) -> builder.maxSegmentProvider(instances));
    }

    /** Alerts start at the newest event: a first deployment must not page for every reopen in history. */
    @Bean
    ConfigurerModule reopenAlertsStartAtHead() {
        return configurer -> configurer.eventProcessing().registerPooledStreamingEventProcessorConfiguration("incident-alerts",
                (config, builder) -> builder.initialToken(StreamableMessageSource::createHeadToken));
    }

    /**
     * Our own mapper, not Spring MVC's: the stored form of events must not change when someone
     * tunes {@code spring.jackson.*}. Unknown properties are tolerated so that a rolled-back
     * version can still read events written by a newer one.
     */
    @Bean
    @Primary
    Serializer serializer() {
        return JacksonSerializer.builder()
                .objectMapper(JsonMapper.builder()
                        .addModule(new JavaTimeModule())
                        .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                        .build())
                .lenientDeserialization()
                .build();
    }

    @Bean
    @Qualifier("eventSerializer")
    Serializer eventSerializer(Serializer serializer) {
        return serializer;
    }

    @Bean
    @Qualifier("messageSerializer")
    Serializer messageSerializer(Serializer serializer) {
        return serializer;
    }
}

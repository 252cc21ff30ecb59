package io.dlqdesk.app;

import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.axonframework.config.ConfigurerModule;
import org.axonframework.eventhandling.PropagatingErrorHandler;
import org.axonframework.extensions.kafka.KafkaProperties;
import org.axonframework.extensions.kafka.eventhandling.KafkaMessageConverter;
import org.axonframework.extensions.kafka.eventhandling.producer.KafkaPublisher;
import org.axonframework.extensions.kafka.eventhandling.producer.ProducerFactory;
import org.axonframework.extensions.kafka.eventhandling.producer.TopicResolver;
import org.axonframework.messaging.StreamableMessageSource;
import org.axonframework.serialization.Serializer;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.time.Duration;

/**
 * How the event processors run that are not configured in application.yml alone: failures propagate,
 * the Kafka publisher and the alerts start where they must. Token and saga stores are Axon's Spring Boot
 * auto-configuration on JPA in MySQL, with the schema from Flyway.
 */
@Configuration(proxyBeanMethods = false)
class AxonEventProcessing {

    static final int PUBLISHER_BATCH = 1000;
    static final int PUBLISHER_SEGMENTS = 2;

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
     * transaction (the extension's default is one event, one token update, one fsync), as many as the read models.
     * After a failed batch those events are sent again, which consumers of the events topic already allow for (they
     * deduplicate by message id). Axon's coordinator counts every queue of every segment (each holds every event) for each
     * event it hands out: so {@value #PUBLISHER_SEGMENTS} segments, as the read models, since more cost every event more and
     * keep no queue shorter; and large batches, since a batch of 100 left its queue nearly full between batches. With the
     * publisher switched off ({@code axon.kafka.publisher.enabled=false}) the extension configures nothing, and neither
     * does this.
     */
    @Bean
    ConfigurerModule kafkaPublisherStartsAtTail(ObjectProvider<KafkaProperties> axonKafka) {
        return configurer -> axonKafka.ifAvailable(kafka -> configurer.eventProcessing().registerPooledStreamingEventProcessorConfiguration(
                kafka.getPublisher().getProcessingGroup(),
                (config, builder) -> builder.initialToken(StreamableMessageSource::createTailToken).batchSize(PUBLISHER_BATCH)
                        .initialSegmentCount(PUBLISHER_SEGMENTS)));
    }

    /**
     * The events topic's publisher, in place of the extension's: a batch's events are sent together and their
     * acknowledgements awaited once, before the batch's token is stored ({@link BatchAcknowledgedKafkaPublisher}), for
     * at most the producer's {@code delivery.timeout.ms}. Built from the extension's own parts, as its auto-configuration
     * builds its publisher.
     */
    @Bean(destroyMethod = "shutDown")
    @ConditionalOnProperty(name = "axon.kafka.publisher.enabled", havingValue = "true", matchIfMissing = true)
    <K, V> KafkaPublisher<K, V> kafkaPublisher(@Qualifier("eventSerializer") Serializer eventSerializer,
                                               ProducerFactory<K, V> axonKafkaProducerFactory, KafkaMessageConverter<K, V> kafkaMessageConverter,
                                               TopicResolver topicResolver, KafkaProperties kafka, org.axonframework.config.Configuration axon) {
        Duration acknowledgementLimit = Duration.ofMillis(
                new ProducerConfig(kafka.buildProducerProperties()).getInt(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG));
        return new BatchAcknowledgedKafkaPublisher<>(axonKafkaProducerFactory, kafkaMessageConverter, topicResolver,
                axon.messageMonitor(KafkaPublisher.class, "kafkaPublisher"), eventSerializer, acknowledgementLimit);
    }

    /** Every streaming processor's transactions are measured by the events they handled ({@link ProcessorBatchSizes}). */
    @Bean
    ConfigurerModule processorBatchSizesAreMeasured(MeterRegistry meters) {
        return configurer -> configurer.eventProcessing().registerDefaultHandlerInterceptor(
                (config, processingGroup) -> new ProcessorBatchSizes(meters, processingGroup));
    }

    /** Alerts start at the newest event: a first deployment must not page for every reopen in history. */
    @Bean
    ConfigurerModule reopenAlertsStartAtHead() {
        return configurer -> configurer.eventProcessing().registerPooledStreamingEventProcessorConfiguration(
                ReopenAlerts.PROCESSING_GROUP, (config, builder) -> builder.initialToken(StreamableMessageSource::createHeadToken));
    }
}

package io.dlqdesk.app;

import io.micrometer.core.instrument.MeterRegistry;
import org.axonframework.config.ConfigurerModule;
import org.axonframework.eventhandling.PropagatingErrorHandler;
import org.axonframework.extensions.kafka.KafkaProperties;
import org.axonframework.messaging.StreamableMessageSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * How the event processors run that are not configured in application.yml alone: failures propagate,
 * the Kafka publisher and the alerts start where they must. Token and saga stores are Axon's Spring Boot
 * auto-configuration on JPA in MySQL, with the schema from Flyway.
 */
@Configuration(proxyBeanMethods = false)
class AxonEventProcessing {

    static final int PUBLISHER_BATCH = 100;

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
     * deduplicate by message id). Four segments keep each segment's queue short. With the publisher switched off
     * ({@code axon.kafka.publisher.enabled=false}) the extension configures nothing, and neither does this.
     */
    @Bean
    ConfigurerModule kafkaPublisherStartsAtTail(ObjectProvider<KafkaProperties> axonKafka) {
        return configurer -> axonKafka.ifAvailable(kafka -> configurer.eventProcessing().registerPooledStreamingEventProcessorConfiguration(
                kafka.getPublisher().getProcessingGroup(),
                (config, builder) -> builder.initialToken(StreamableMessageSource::createTailToken).batchSize(PUBLISHER_BATCH)
                        .initialSegmentCount(4)));
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

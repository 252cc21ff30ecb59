package io.dlqdesk.app;

import io.dlqdesk.notifications.NotificationProperties;
import io.dlqdesk.notifications.delivery.Deliveries;
import io.dlqdesk.notifications.source.IngestStallWatch;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import java.lang.management.ManagementFactory;
import java.time.Clock;

/** Ingest stalls into notifications: the ingest module's readiness, watched by the notifications module, which knows neither. */
@Configuration(proxyBeanMethods = false)
class NotificationWiring {

    @Bean
    IngestStallWatch ingestStallWatch(@Qualifier("dlqIngestHealthIndicator") HealthIndicator ingestReadiness, Deliveries deliveries,
                                      PlatformTransactionManager transactionManager, NotificationProperties properties) {
        return new IngestStallWatch(ingestReadiness::health, deliveries, new TransactionTemplate(transactionManager),
                properties.ingestCheckInterval(), ManagementFactory.getRuntimeMXBean().getName(), Clock.systemUTC());
    }
}

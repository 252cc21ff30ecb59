package io.dlqdesk.app;

import io.dlqdesk.notifications.NotificationProperties;
import io.dlqdesk.notifications.delivery.Deliveries;
import io.dlqdesk.notifications.source.IngestStallWatch;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Clock;

/** Ingest stalls into notifications: the ingest module's readiness and the instance registry, watched by the notifications module, which knows neither. */
@Configuration(proxyBeanMethods = false)
class NotificationWiring {

    /** Known by its row in service_instance, so a stall it leaves open when it is gone is ended by the instances still alive. */
    @Bean
    IngestStallWatch ingestStallWatch(@Qualifier("dlqIngestHealthIndicator") HealthIndicator ingestReadiness, Deliveries deliveries, JdbcTemplate jdbc,
                                      PlatformTransactionManager transactionManager, NotificationProperties properties, InstanceRegistry instances) {
        return new IngestStallWatch(ingestReadiness::health, deliveries, jdbc, new TransactionTemplate(transactionManager),
                properties.ingestCheckInterval(), new IngestStallWatch.Instances(instances.instanceId(), instances::isAlive, instances.expiry()),
                Clock.systemUTC());
    }
}

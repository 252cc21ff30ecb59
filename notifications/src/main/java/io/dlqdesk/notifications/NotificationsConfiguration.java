package io.dlqdesk.notifications;

import io.dlqdesk.domain.incident.Ledger;
import io.dlqdesk.notifications.delivery.Deliveries;
import io.dlqdesk.notifications.delivery.NotificationMetrics;
import io.dlqdesk.notifications.delivery.RateLimit;
import io.dlqdesk.notifications.delivery.WebhookBody;
import io.dlqdesk.notifications.delivery.WebhookSenders;
import io.dlqdesk.notifications.source.IncidentNotifications;
import io.micrometer.core.instrument.MeterRegistry;
import org.axonframework.config.ConfigurerModule;
import org.axonframework.eventhandling.ReplayToken;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.util.backoff.ExponentialBackOff;

/** Webhook notifications: the processor that writes deliveries, the table, and one sender per receiver. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(NotificationProperties.class)
public class NotificationsConfiguration {

    @Bean
    Deliveries notificationDeliveries(JdbcTemplate jdbc, PlatformTransactionManager transactionManager, NotificationProperties properties,
                                      Ledger ledger) {
        // the claim locks the row it returns and no gap: a claim never waits for rows being inserted
        TransactionTemplate readCommitted = new TransactionTemplate(transactionManager);
        readCommitted.setIsolationLevel(TransactionDefinition.ISOLATION_READ_COMMITTED);
        return new Deliveries(jdbc, readCommitted, properties.webhooks(), new WebhookBody(properties.consoleBaseUrl(), ledger.name()),
                new RateLimit(properties.rateLimit(), properties.rateWindow()));
    }

    @Bean
    NotificationMetrics notificationMetrics(MeterRegistry meters, NotificationProperties properties) {
        return new NotificationMetrics(meters, properties.webhooks());
    }

    @Bean
    IncidentNotifications incidentNotifications(Deliveries deliveries, JdbcTemplate jdbc, MeterRegistry meters) {
        return new IncidentNotifications(deliveries, jdbc, meters);
    }

    @Bean
    WebhookSenders webhookSenders(Deliveries deliveries, NotificationMetrics metrics, NotificationProperties properties) {
        ExponentialBackOff backOff = new ExponentialBackOff(properties.initialBackoff().toMillis(), 2.0);
        backOff.setMaxInterval(properties.maxBackoff().toMillis());
        return new WebhookSenders(properties.webhooks(), deliveries, metrics, properties.pollInterval(), backOff, properties.retryWindow(),
                properties.keepDecided());
    }

    /**
     * The processor starts at the oldest event, as a replay up to the newest one at its first start: the history teaches
     * it the exception groups already seen and sends nothing (a first deployment must not announce years of incidents);
     * every later event is live and notified.
     */
    @Bean
    ConfigurerModule incidentNotificationsStartAsReplayOfHistory() {
        return configurer -> configurer.eventProcessing().registerPooledStreamingEventProcessorConfiguration(
                IncidentNotifications.PROCESSING_GROUP,
                (config, builder) -> builder.initialToken(source -> ReplayToken.createReplayToken(source.createHeadToken(), source.createTailToken())));
    }
}

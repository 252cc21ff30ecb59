package io.dlqdesk.retention;

import io.dlqdesk.domain.incident.Ledger;
import io.dlqdesk.kafka.KafkaConnection;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.axonframework.queryhandling.QueryGateway;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import java.time.Clock;
import java.util.Map;

/** The retention guard: start-up budget check, scheduled topic check, report endpoint. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(RetentionProperties.class)
@Import(RetentionController.class)
public class RetentionConfiguration {

    @Bean
    RetentionGuard retentionGuard(RetentionProperties properties, Ledger ledger, KafkaConnection kafka, QueryGateway queries,
                                  MeterRegistry meters, @Value("${dlqdesk.metrics.max-series-per-family:50}") int maxSeries) {
        int timeoutMs = (int) properties.adminTimeout().toMillis();
        Map<String, Object> adminConfig = kafka.clientConfig("retention-guard");
        adminConfig.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, timeoutMs);
        adminConfig.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, timeoutMs);
        TopicRetentionInspector inspector = new TopicRetentionInspector(() -> Admin.create(adminConfig), properties.adminTimeout());
        return new RetentionGuard(properties, ledger.replayWindow(), inspector, queries, meters, Clock.systemUTC(),
                maxSeries); // the cap every labelled metric family has
    }
}

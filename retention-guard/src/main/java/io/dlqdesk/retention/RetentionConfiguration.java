package io.dlqdesk.retention;

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
import java.time.Duration;
import java.util.Map;

/** The retention guard: start-up budget check, scheduled topic check, report endpoint. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(RetentionProperties.class)
@Import(RetentionController.class)
public class RetentionConfiguration {

    @Bean
    RetentionGuard retentionGuard(RetentionProperties properties, @Value("${dlqdesk.replay-window}") Duration replayWindow,
                                  @Value("${spring.kafka.bootstrap-servers}") String bootstrapServers,
                                  @Value("${spring.application.name}") String applicationName,
                                  QueryGateway queries, MeterRegistry meters) {
        int timeoutMs = (int) properties.adminTimeout().toMillis();
        TopicRetentionInspector inspector = new TopicRetentionInspector(() -> Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                AdminClientConfig.CLIENT_ID_CONFIG, applicationName + "-retention-guard",
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, timeoutMs,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, timeoutMs)), properties.adminTimeout());
        return new RetentionGuard(properties, replayWindow, inspector, queries, meters, Clock.systemUTC());
    }
}

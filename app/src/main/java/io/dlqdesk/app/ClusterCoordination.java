package io.dlqdesk.app;

import org.axonframework.config.ConfigurerModule;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;

import javax.sql.DataSource;
import java.time.Duration;

/**
 * Several instances on one database: one starts Axon at a time, each knows how many are alive, and every
 * pooled processor claims only this instance's share of its segments.
 */
@Configuration(proxyBeanMethods = false)
class ClusterCoordination {

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
    ShutdownDeadline shutdownDeadline(ConfigurableApplicationContext context, InstanceProperties properties) {
        return new ShutdownDeadline(context, properties.shutdownTimeout());
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
}

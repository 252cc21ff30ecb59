package io.dlqdesk.app;

import org.axonframework.queryhandling.DefaultQueryGateway;
import org.axonframework.queryhandling.QueryBus;
import org.axonframework.queryhandling.QueryGateway;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.time.Duration;

/** The query side: a gateway that asks a query again when the database chose its read as a deadlock's victim. */
@Configuration(proxyBeanMethods = false)
class AxonQueryHandling {

    @Bean
    QueryGateway queryGateway(QueryBus queryBus) {
        return new LockRetryingQueryGateway(DefaultQueryGateway.builder().queryBus(queryBus), 3, Duration.ofMillis(20));
    }
}

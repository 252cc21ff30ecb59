package io.dlqdesk.rebuild;

import io.dlqdesk.parked.ParkingPolicy;
import io.micrometer.core.instrument.MeterRegistry;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.tokenstore.TokenStore;
import org.axonframework.eventsourcing.eventstore.EventStorageEngine;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.axonframework.serialization.Serializer;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import javax.sql.DataSource;
import java.time.Clock;

/** The bulk rebuilds, over the service's database, event store, processors and parking policy. */
@Configuration(proxyBeanMethods = false)
public class RebuildConfiguration {

    @Bean
    ReadModelRebuilds readModelRebuilds(DataSource dataSource, PlatformTransactionManager transactions, EventStorageEngine events,
                                        EventProcessingConfiguration processing, TokenStore tokens, @Qualifier("serializer") Serializer serializer,
                                        EventStore eventStore, ParkingPolicy policy, MeterRegistry meters,
                                        @Value("${dlqdesk.rebuild.shadow-schema:}") String shadowSchema) {
        return new ReadModelRebuilds(dataSource, new TransactionTemplate(transactions), shadowSchema, events, processing, tokens, serializer,
                eventStore, policy, meters, Clock.systemUTC());
    }
}

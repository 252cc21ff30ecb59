package io.dlqdesk.rollback;

import io.dlqdesk.kafka.KafkaConnection;
import io.dlqdesk.rollback.check.BoundedReads;
import io.dlqdesk.rollback.check.RollbackChecker;
import io.dlqdesk.rollback.source.DatabaseLedger;
import io.dlqdesk.rollback.source.KafkaBrokerOffsets;
import io.dlqdesk.rollback.web.RollbackReadinessController;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import java.time.Clock;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;

/**
 * The rollback checker inside the service (the endpoint) and in the command-line entry point: the same
 * checker over the same database and brokers. The ingest group and DLQ topics ({@link IngestSubscription}) and
 * the brokers ({@link KafkaConnection}) come from whoever wires this in, built from the ingest loop's own settings ({@code dlqdesk.ingest.*}),
 * so both always check what ingest really reads.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(RollbackProperties.class)
@Import(RollbackReadinessController.class)
public class RollbackConfiguration {

    /** The name a test gives its own clock to move time past the retry bound. */
    public static final String CLOCK = "rollbackClock";
    /** Distinct client ids per check: concurrent clients must not share one (metrics names). */
    private static final AtomicLong CHECKS = new AtomicLong();

    /** Closed with the context: its threads end with it. */
    @Bean
    BoundedReads rollbackCheckReads() {
        return new BoundedReads();
    }

    @Bean
    RollbackChecker rollbackChecker(RollbackProperties properties, IngestSubscription ingest, BoundedReads reads, DataSource dataSource,
                                    KafkaConnection kafka, @Qualifier(CLOCK) ObjectProvider<Clock> clock) {
        return new RollbackChecker(new DatabaseLedger(dataSource, properties.requestTimeout()),
                () -> new KafkaBrokerOffsets(kafka.bootstrapServers(), kafka.clientId("rollback-check-" + CHECKS.incrementAndGet()),
                        properties.requestTimeout()),
                reads, properties, ingest, clock.getIfAvailable(Clock::systemUTC), duration -> Thread.sleep(duration.toMillis()));
    }
}

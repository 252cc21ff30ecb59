package io.dlqdesk.ingest.config;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.dlqdesk.domain.incident.Ledger;
import io.dlqdesk.ingest.classify.ClassifierSettings;
import io.dlqdesk.ingest.classify.DlqRecordClassifier;
import io.dlqdesk.ingest.loop.DlqConsumerLoop;
import io.dlqdesk.ingest.loop.IncidentWriter;
import io.dlqdesk.ingest.loop.IngestMetrics;
import io.dlqdesk.ingest.loop.LoopHealth;
import io.dlqdesk.ingest.loop.LoopSettings;
import io.dlqdesk.ingest.loop.QuarantineStore;
import io.dlqdesk.ingest.loop.StoredIncidents;
import io.dlqdesk.ingest.quarantine.QuarantineQueries;
import io.dlqdesk.kafka.KafkaConnection;
import io.dlqdesk.record.EventIdSource;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.common.transaction.TransactionManager;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.scheduling.concurrent.CustomizableThreadFactory;

import java.time.Clock;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.function.Function;
import java.util.regex.Pattern;

/** The DLQ consumer: classifier, writer, loop, its lifecycle, readiness and metrics. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(IngestProperties.class)
public class IngestConfiguration {

    /** Registered with Axon's query bus by the Spring integration (a bean with @QueryHandler methods). */
    @Bean
    QuarantineQueries quarantineQueries(JdbcTemplate jdbc) {
        return new QuarantineQueries(jdbc);
    }

    @Bean
    QuarantineStore quarantineStore(JdbcTemplate jdbc) {
        return new QuarantineStore(jdbc, new ObjectMapper(), Clock.systemUTC());
    }

    @Bean
    IncidentWriter incidentWriter(CommandGateway commands, TransactionManager transactionManager, StoredIncidents storedIncidents,
                                  QuarantineStore quarantine, Ledger ledger) {
        return new IncidentWriter(commands, transactionManager, storedIncidents, quarantine, ledger.replayWindow(), ledger.name(),
                Clock.systemUTC());
    }

    /** Where records carry their eventId: ingest reads failures with it, replay the source records, so both agree. */
    @Bean
    EventIdSource eventIdSource(IngestProperties properties) {
        return new EventIdSource(properties.eventIdHeader(), properties.eventIdJsonField());
    }

    @Bean
    ClassifierSettings classifierSettings(IngestProperties properties, EventIdSource eventIdSource) {
        requireReadTopics(properties);
        return new ClassifierSettings(properties.ownedGroups(), eventIdSource, properties.dialect(), properties.dlqTopics());
    }

    /**
     * A dialect set for a topic the pattern does not read would never apply: most often a name with dots written without
     * brackets (or in an environment variable), which the binder splits at its first dot.
     */
    static void requireReadTopics(IngestProperties properties) {
        java.util.regex.Pattern pattern = java.util.regex.Pattern.compile(properties.topicPattern());
        for (String topic : properties.dlqTopics().keySet()) {
            if (!pattern.matcher(topic).matches()) {
                throw new IllegalStateException("dlqdesk.ingest.dlq-topics[" + topic + "]: dlqdesk.ingest.topic-pattern ("
                        + properties.topicPattern() + ") reads no topic of that name; write a name with dots in brackets,"
                        + " dlqdesk.ingest.dlq-topics[orders.dlq].dialect, not dlqdesk.ingest.dlq-topics.orders.dlq.dialect");
            }
        }
    }

    @Bean
    @ConditionalOnProperty(name = "dlqdesk.ingest.enabled", havingValue = "true", matchIfMissing = true)
    DlqConsumerLoop dlqConsumerLoop(IngestProperties properties, ClassifierSettings classifierSettings, IncidentWriter writer, MeterRegistry registry,
                                    KafkaConnection kafka) {
        DlqRecordClassifier classifier = new DlqRecordClassifier(classifierSettings);
        LoopSettings settings = new LoopSettings(Pattern.compile(properties.topicPattern()), properties.malformedPolicy(),
                properties.maxInFlight(), properties.maxAwaitingCommitPerPartition(), properties.batchSize(), properties.pollTimeout(),
                properties.commitTimeout(), properties.retryInitialBackoff(), properties.retryMaxBackoff(), properties.restartBackoff(),
                properties.maxRecordAttempts(), properties.drainTimeout());
        Map<String, Object> consumerConfig = kafka.clientConfig("ingest");
        consumerConfig.put(ConsumerConfig.GROUP_ID_CONFIG, properties.groupId());
        consumerConfig.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        consumerConfig.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        // records of aborted transactions are not failures anyone published
        consumerConfig.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        consumerConfig.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, Math.min(500, properties.maxInFlight()));
        // new DLQ topics matching the pattern are picked up within this time
        consumerConfig.put(ConsumerConfig.METADATA_MAX_AGE_CONFIG, 30_000);
        CustomizableThreadFactory workerThreads = new CustomizableThreadFactory("dlq-ingest-worker-");
        workerThreads.setDaemon(true);
        LoopHealth health = new LoopHealth(Clock.systemUTC());
        return new DlqConsumerLoop(
                () -> new KafkaConsumer<>(consumerConfig, new ByteArrayDeserializer(), new ByteArrayDeserializer()),
                classifier::classify, writer, settings, Executors.newFixedThreadPool(properties.workers(), workerThreads),
                health, new IngestMetrics(registry, health));
    }

    /** Starts the loop once everything it writes through (Axon, the database) is up; stops it first. */
    @Bean
    @ConditionalOnProperty(name = "dlqdesk.ingest.enabled", havingValue = "true", matchIfMissing = true)
    SmartLifecycle dlqConsumerLoopLifecycle(DlqConsumerLoop loop) {
        return new SmartLifecycle() {
            @Override
            public void start() {
                loop.start();
            }

            @Override
            public void stop() {
                loop.stop();
            }

            @Override
            public boolean isRunning() {
                return loop.running();
            }

            @Override
            public int getPhase() {
                return Integer.MAX_VALUE - 100; // after Axon's processors, before the web server stops accepting
            }
        };
    }

    /**
     * Readiness: not polling, records waiting and none written, or without a broker for a short while.
     * Always present, as the group names it; UP when ingest is disabled.
     */
    @Bean
    HealthIndicator dlqIngestHealthIndicator(ObjectProvider<DlqConsumerLoop> loop, IngestProperties properties) {
        return indicator(loop, running -> IngestHealthIndicator.readiness(running.health(), properties.readinessTimeout(), Clock.systemUTC()));
    }

    /** Liveness: not polling for much longer (a stopped or hung loop), so that the instance is replaced. */
    @Bean
    HealthIndicator dlqIngestLivenessHealthIndicator(ObjectProvider<DlqConsumerLoop> loop, IngestProperties properties) {
        return indicator(loop, running -> IngestHealthIndicator.liveness(running.health(), properties.livenessTimeout(), Clock.systemUTC()));
    }

    /** Readiness as a number, for alert rules: 1 while {@code dlqIngest} is UP, else 0 (read at scrape time). */
    @Bean
    MeterBinder dlqIngestReadyGauge(@Qualifier("dlqIngestHealthIndicator") HealthIndicator readiness) {
        return registry -> Gauge.builder("dlq.ingest.ready", readiness, indicator -> Status.UP.equals(indicator.health().getStatus()) ? 1 : 0)
                .description("1 while DLQ ingest is ready (readiness component dlqIngest UP), else 0").register(registry);
    }

    private static HealthIndicator indicator(ObjectProvider<DlqConsumerLoop> loop, Function<DlqConsumerLoop, HealthIndicator> of) {
        DlqConsumerLoop running = loop.getIfAvailable();
        if (running == null) {
            return () -> Health.up().withDetail("enabled", false).build();
        }
        return of.apply(running);
    }
}

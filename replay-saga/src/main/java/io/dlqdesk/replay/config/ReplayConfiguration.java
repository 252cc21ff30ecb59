package io.dlqdesk.replay.config;

import io.dlqdesk.domain.incident.Ledger;
import io.dlqdesk.kafka.KafkaConnection;
import io.dlqdesk.record.EventIdExtractor;
import io.dlqdesk.record.EventIdSource;
import io.dlqdesk.replay.edit.EditContentStore;
import io.dlqdesk.replay.edit.EditProposer;
import io.dlqdesk.replay.job.IncidentAsk;
import io.dlqdesk.replay.job.JobCommands;
import io.dlqdesk.replay.job.JobMetadata;
import io.dlqdesk.replay.job.JobRunner;
import io.dlqdesk.replay.job.JobWorkList;
import io.dlqdesk.replay.job.JobWorkProjection;
import io.dlqdesk.replay.outbox.OutboxPoller;
import io.dlqdesk.replay.outbox.OutboxRowOnRequest;
import io.dlqdesk.replay.outbox.ReplayOutbox;
import io.dlqdesk.replay.outbox.ReplayPublisher;
import io.dlqdesk.replay.outbox.ReplaySigner;
import io.dlqdesk.replay.outbox.ResultReporter;
import io.dlqdesk.replay.request.PublishUnknownMarker;
import io.dlqdesk.replay.request.ReplayPolicies;
import io.dlqdesk.replay.request.ReplayRequester;
import io.dlqdesk.replay.request.ReplaySwitch;
import io.dlqdesk.replay.saga.ReconciliationDelay;
import io.dlqdesk.replay.saga.ReplaySaga;
import io.dlqdesk.replay.source.KeyFreshnessReader;
import io.dlqdesk.replay.source.PartitionEndReader;
import io.dlqdesk.replay.source.SourceRecordReader;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.config.ConfigurerModule;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.EventTrackerStatus;
import org.axonframework.eventhandling.StreamingEventProcessor;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.axonframework.messaging.StreamableMessageSource;
import org.axonframework.messaging.correlation.CorrelationDataProvider;
import org.axonframework.messaging.correlation.MessageOriginProvider;
import org.axonframework.messaging.correlation.SimpleCorrelationDataProvider;
import org.axonframework.spring.messaging.unitofwork.SpringTransactionManager;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.DefaultTransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Clock;
import java.util.regex.Pattern;

/** Replay: the request service and switch, the saga, the outbox, its poller and publisher, the replay-job runner. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({ReplayProperties.class, ReplayJobProperties.class})
@Import(ReplaySaga.class)
public class ReplayConfiguration {

    @Bean
    ReplaySwitch replaySwitch(JdbcTemplate jdbc, ReplayProperties properties) {
        return new ReplaySwitch(jdbc, properties.forceOff());
    }

    @Bean
    ReplayOutbox replayOutbox(JdbcTemplate jdbc) {
        return new ReplayOutbox(jdbc);
    }

    @Bean
    SourceRecordReader sourceRecordReader(ReplayProperties properties, KafkaConnection kafka) {
        return new SourceRecordReader(kafka.bootstrapServers(), kafka.clientId("replay-reader"), properties.sourceReadTimeout());
    }

    /** The end offset of a replay's target partition when an attempt is decided without a location (FAILED, PUBLISH_UNKNOWN), and a source topic's retention when a replay is asked for. */
    @Bean
    PartitionEndReader partitionEndReader(ReplayProperties properties, KafkaConnection kafka) {
        return new PartitionEndReader(kafka.bootstrapServers(), kafka.clientId("replay-end-reader"), properties.sourceReadTimeout());
    }

    /** The stale-key check of the topics it is configured for. */
    @Bean
    KeyFreshnessReader keyFreshnessReader(ReplayProperties properties, KafkaConnection kafka) {
        ReplayProperties.StaleKeyCheck check = properties.staleKeyCheck();
        return new KeyFreshnessReader(kafka.clientConfig("replay-freshness"),
                new KeyFreshnessReader.Settings(Pattern.compile(check.topics()), check.maxRecords(), check.timeout()));
    }

    @Bean
    ReplayRequester replayRequester(SourceRecordReader reader, PartitionEndReader topics, KeyFreshnessReader freshness, EventIdSource eventIdSource,
                                    ReplaySwitch replaySwitch, ReplayProperties properties, Ledger ledger, CommandGateway commands) {
        if (properties.allowedTopics().isEmpty()) {
            LoggerFactory.getLogger(ReplayConfiguration.class).warn("dlqdesk.replay.allowed-topics is not set: every replay is refused"
                    + " TOPIC_NOT_ALLOWED until it names the source topics that may be replayed (a regular expression)");
        }
        return new ReplayRequester(reader, topics, freshness, new EventIdExtractor(eventIdSource), replaySwitch,
                new ReplayPolicies(Pattern.compile(properties.allowedTopics()), properties.maxAttempts()), ledger.name(), commands);
    }

    @Bean
    EditContentStore editContentStore(JdbcTemplate jdbc) {
        return new EditContentStore(jdbc);
    }

    @Bean
    EditProposer editProposer(SourceRecordReader reader, EditContentStore contents, EventIdSource eventIdSource, CommandGateway commands) {
        return new EditProposer(reader, contents, new EventIdExtractor(eventIdSource), commands);
    }

    @Bean
    PublishUnknownMarker publishUnknownMarker(ReplayOutbox outbox, PartitionEndReader ends, CommandGateway commands,
                                              PlatformTransactionManager transactionManager) {
        return new PublishUnknownMarker(outbox, ends, commands, new TransactionTemplate(transactionManager));
    }

    @Bean
    ReconciliationDelay reconciliationDelay(ReplayProperties properties) {
        return new ReconciliationDelay(properties.reconciliationDelay());
    }

    @Bean
    OutboxRowOnRequest outboxRowOnRequest(ReplayOutbox outbox) {
        return new OutboxRowOnRequest(outbox);
    }

    /** In the request's own transaction: a subscribing processor, whatever the default processor type is. */
    @Bean
    ConfigurerModule outboxRowWrittenOnRequest() {
        return configurer -> configurer.eventProcessing().registerSubscribingEventProcessor(OutboxRowOnRequest.PROCESSING_GROUP);
    }

    /**
     * The context owns the producer and closes it (as every AutoCloseable bean) after the poller using it has stopped.
     * Signing settings that do not make sense stop the start; none at all is allowed (the local run, the tests without
     * consumers) but said, in a WARN and in the gauge {@code dlq.replay.signing.active} (0).
     */
    @Bean(destroyMethod = "close")
    ReplayPublisher replayPublisher(ReplayProperties properties, KafkaConnection kafka, MeterRegistry meters) {
        ReplaySigner signer = properties.signing().signer();
        Gauge.builder("dlq.replay.signing.active", () -> signer.signs() ? 1 : 0)
                .description("1 when replays are signed (dlqdesk.replay.signing.active-key-id), 0 when they go out unsigned and every consumer group processes them")
                .register(meters);
        if (signer.signs()) {
            LoggerFactory.getLogger(ReplayConfiguration.class).info("replays are signed with key '{}'", signer.keyId().orElseThrow());
        } else {
            LoggerFactory.getLogger(ReplayConfiguration.class).warn("dlqdesk.replay.signing is not set: replays go out unsigned, so no"
                    + " dlq-desk-consumer skips a replay meant for another group (every group processes it). Set"
                    + " dlqdesk.replay.signing.active-key-id and dlqdesk.replay.signing.keys.<id> (a secret of at least 32 bytes),"
                    + " the same keys as the consumers'");
        }
        return new ReplayPublisher(kafka.bootstrapServers(), kafka.clientId("replay-publisher"), properties.publishTimeout(),
                (int) properties.maxRequestSize().toBytes(), properties.deniedHeaders(), signer);
    }

    @Bean
    OutboxPoller outboxPoller(ReplayOutbox outbox, SourceRecordReader reader, ReplayPublisher publisher, EditContentStore edits,
                              PartitionEndReader ends, ReplaySwitch replaySwitch, CommandGateway commands, TransactionManager axonTransactions,
                              PlatformTransactionManager transactionManager, ReplayProperties properties, MeterRegistry meters) {
        return new OutboxPoller(outbox, reader, publisher, edits, ends, replaySwitch, new ResultReporter(commands, axonTransactions),
                readCommitted(transactionManager),
                new OutboxPoller.Settings(properties.pollInterval(), properties.claimSize(), properties.maxTries(), properties.initialBackoff(),
                        properties.maxBackoff(), properties.markSentRetryFor()), meters);
    }

    @Bean
    JobWorkProjection jobWorkProjection(JdbcTemplate jdbc) {
        return new JobWorkProjection(jdbc);
    }

    /**
     * The work list's processor starts at the oldest event as a plain token (it must see every job's creation) and takes
     * batches; its one segment (application.yml) is what makes one instance the runner.
     */
    @Bean
    ConfigurerModule jobWorkListStartsAtTail() {
        return configurer -> configurer.eventProcessing().registerPooledStreamingEventProcessorConfiguration(
                JobWorkProjection.PROCESSING_GROUP, (config, builder) -> builder.initialToken(StreamableMessageSource::createTailToken));
    }

    /** A replay request made by a job names it in its metadata; Axon copies that onto the events the request appends. */
    @Bean
    CorrelationDataProvider replayJobCorrelation() {
        return new SimpleCorrelationDataProvider(JobMetadata.KEY);
    }

    /** Axon's own provider (correlation and trace ids), which it registers only while no other provider is a bean. */
    @Bean
    CorrelationDataProvider messageOrigin() {
        return new MessageOriginProvider();
    }

    /** The runner's work list; the API reads it too (a new job must not select incidents of a job with work left). */
    @Bean
    JobWorkList jobWorkList(JdbcTemplate jdbc) {
        return new JobWorkList(jdbc);
    }

    @Bean
    JobRunner jobRunner(JobWorkList work, EventStore events, ReplayRequester requester, ReplaySwitch replaySwitch, CommandGateway commands,
                        TransactionManager axonTransactions, ObjectProvider<EventProcessingConfiguration> processing,
                        ReplayJobProperties properties) {
        return new JobRunner(work, new IncidentAsk(events, requester), new JobCommands(commands, axonTransactions),
                () -> holdsWorkList(processing.getIfAvailable()), replaySwitch::isOn, Clock.systemUTC(), System::nanoTime,
                new JobRunner.Settings(properties.tick(), properties.workers(), properties.keepEnded()));
    }

    /** This instance runs the jobs while its work-list processor holds the (one) segment and is not failing. */
    private static boolean holdsWorkList(EventProcessingConfiguration processing) {
        return processing != null && processing.eventProcessor(JobWorkProjection.PROCESSING_GROUP, StreamingEventProcessor.class)
                .filter(StreamingEventProcessor::isRunning)
                .map(StreamingEventProcessor::processingStatus)
                .filter(segments -> !segments.isEmpty() && segments.values().stream().noneMatch(EventTrackerStatus::isErrorState))
                .isPresent();
    }

    /**
     * The poller's transactions read committed: its claim then locks only the rows it returns, no gaps, so
     * requests inserting new rows never wait for a round that is sending.
     */
    private static TransactionTemplate readCommitted(PlatformTransactionManager transactionManager) {
        TransactionTemplate transactions = new TransactionTemplate(transactionManager);
        transactions.setIsolationLevel(TransactionDefinition.ISOLATION_READ_COMMITTED);
        return transactions;
    }

    /**
     * The saga's batches run read committed: under repeatable read, deleting an ended saga's association rows
     * locks the index gaps around them, and the other segment's batch inserting new sagas' rows into those gaps
     * deadlocks with it. Each saga is handled by one segment only (its events are one incident's), so nothing
     * relies on repeatable reads across segments.
     */
    @Bean
    ConfigurerModule replaySagaReadsCommitted(PlatformTransactionManager transactionManager) {
        DefaultTransactionDefinition readCommitted = new DefaultTransactionDefinition();
        readCommitted.setIsolationLevel(TransactionDefinition.ISOLATION_READ_COMMITTED);
        return configurer -> configurer.eventProcessing().registerTransactionManager(ReplaySaga.PROCESSING_GROUP,
                config -> new SpringTransactionManager(transactionManager, readCommitted));
    }

    /**
     * The saga's processor starts at the oldest event as a plain (non-replay) token, like the Kafka
     * publisher's: a replay requested before its first start must still get its outbox row.
     */
    @Bean
    ConfigurerModule replaySagaStartsAtTail() {
        return configurer -> configurer.eventProcessing().registerPooledStreamingEventProcessorConfiguration(ReplaySaga.PROCESSING_GROUP,
                (config, builder) -> builder.initialToken(StreamableMessageSource::createTailToken));
    }
}

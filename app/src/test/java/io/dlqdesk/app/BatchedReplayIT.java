package io.dlqdesk.app;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.OperatorAction;
import io.dlqdesk.domain.replay.ReplayHeaders;
import io.dlqdesk.replay.outbox.ClaimedRow;
import io.dlqdesk.replay.edit.EditContentStore;
import io.dlqdesk.replay.outbox.OutboxPoller;
import io.dlqdesk.replay.outbox.OutboxRow;
import io.dlqdesk.replay.outbox.ReplayOutbox;
import io.dlqdesk.replay.outbox.ReplayPublisher;
import io.dlqdesk.replay.outbox.ResultReporter;
import io.dlqdesk.replay.request.ReplaySwitch;
import io.dlqdesk.replay.saga.ReplaySaga;
import io.dlqdesk.replay.source.PartitionEndReader;
import io.dlqdesk.replay.source.SourceRecordReader;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.StreamingEventProcessor;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The batched replay path on the real broker and database: an accepted replay's outbox row exists when the
 * request returns, one poller round claims many rows, sends them all and records them with one decision time,
 * every replay carries its source record's bytes, and a switch turned off after the claim sends nothing. The
 * service's own poller stays idle (an hour's interval): the tests run rounds by hand.
 */
@RealInfrastructure
class BatchedReplayIT {

    private static final String NONCE = "b" + System.nanoTime();
    private static final String ORDERS = "it-" + NONCE + "-orders";
    private static final String DLQ = ORDERS + ".dlq";
    private static final String GROUP = "shipping";
    private static final int PARTITIONS = 3;
    private static final Duration WAIT = Duration.ofSeconds(90);

    private static KafkaBroker broker;
    private static ConfigurableApplicationContext app;
    private static JdbcTemplate jdbc;
    private static int sequence;

    /** A source record, the incident its failure opened, and the replay id of its first attempt. */
    private record Source(RecordMetadata at, String incidentId, byte[] key, byte[] value, long timestamp, String eventId) {
    }

    @BeforeAll
    static void start(TestDatabase database, KafkaBroker kafka) throws Exception {
        broker = kafka;
        IngestLedger.createTopic(broker, ORDERS, PARTITIONS, Map.of());
        IngestLedger.createTopic(broker, DLQ, 1, Map.of());
        app = RunningApp.start(database, broker, Map.of(
                "dlqdesk.ingest.topic-pattern", DLQ.replace("-", "\\-").replace(".", "\\."),
                "dlqdesk.ingest.group-id", "ingest-" + NONCE,
                "dlqdesk.events-topic", "it-" + NONCE + "-incident-events",
                "dlqdesk.replay.poll-interval", "1h",
                "dlqdesk.replay.claim-size", "50"));
        jdbc = app.getBean(JdbcTemplate.class);
    }

    @AfterAll
    static void stop() {
        app.close();
    }

    @BeforeEach
    void switchOn() throws Exception {
        Replays.setSwitch(app, true);
    }

    @Test
    void manyReplaysRequestedAtOnceAreClaimedInOneRoundAndAllPublishedWithTheirRecordsBytes() throws Exception {
        List<Source> sources = failures(40);
        DistributionSummary claims = app.getBean(MeterRegistry.class).find("dlq.replay.claimed_rows").summary();
        long roundsBefore = claims.count();
        double rowsBefore = claims.totalAmount();

        // the saga is stopped: each row must come from the request's own transaction
        StreamingEventProcessor saga = app.getBean(EventProcessingConfiguration.class)
                .eventProcessorByProcessingGroup(ReplaySaga.PROCESSING_GROUP, StreamingEventProcessor.class).orElseThrow();
        saga.shutDown();
        try {
            requestAll(sources);
            assertThat(pendingRows(sources)).as("rows written with the accepted requests").isEqualTo(sources.size());
        } finally {
            saga.start();
        }

        app.getBean(OutboxPoller.class).pollOnce();

        assertThat(claims.count() - roundsBefore).as("rounds that claimed rows").isEqualTo(1);
        assertThat(claims.totalAmount() - rowsBefore).as("rows that round claimed").isEqualTo(sources.size());
        assertThat(jdbc.queryForObject("SELECT COUNT(DISTINCT decided_at) FROM replay_outbox WHERE status = 'SENT' AND incident_id IN ("
                + placeholders(sources) + ")", Integer.class, incidentIds(sources))).as("one decision time for the round").isEqualTo(1);
        await().atMost(WAIT).until(() -> publishedResults(sources) == sources.size());

        for (Source source : sources) {
            TopicPartition partition = new TopicPartition(ORDERS, source.at().partition());
            List<ConsumerRecord<byte[], byte[]>> replays = Replays.replaysOn(broker, partition, source.at().offset() + 1, source.incidentId());
            assertThat(replays).as("replays of %s", source.incidentId()).isNotEmpty().allSatisfy(replay -> {
                assertThat(replay.key()).isEqualTo(source.key());
                assertThat(replay.value()).isEqualTo(source.value());
                assertThat(replay.timestamp()).isEqualTo(source.timestamp());
                assertThat(Replays.header(replay, "eventId")).isEqualTo(source.eventId());
                assertThat(Replays.header(replay, ReplayHeaders.ATTEMPT)).isEqualTo("1");
                assertThat(Replays.header(replay, ReplayHeaders.TARGET_GROUP)).isEqualTo(GROUP);
            });
            OutboxRow row = app.getBean(ReplayOutbox.class).find(IncidentId.parse(source.incidentId()).replayId(1)).orElseThrow();
            assertThat(row.tries()).isEqualTo(1);
            assertThat(Replays.lastPayload(app, source.incidentId(), "PublishResultRecorded"))
                    .contains("\"status\":\"PUBLISHED\"", "\"offset\":" + row.publishedAt().offset());
        }
    }

    @Test
    void theSwitchTurnedOffBetweenTheClaimAndTheSendSendsNothingAndCountsNoTry() throws Exception {
        List<Source> sources = failures(3);
        requestAll(sources);
        long[] ends = endOffsets();
        AtomicInteger claimed = new AtomicInteger();
        ReplaySwitch replaySwitch = app.getBean(ReplaySwitch.class);
        // the claim returns, then an admin (another connection) turns the switch off before anything is read or sent
        ReplayOutbox switchedOffAfterClaim = new ReplayOutbox(jdbc) {
            @Override
            public List<ClaimedRow> claimDue(int limit) {
                List<ClaimedRow> rows = super.claimDue(limit);
                claimed.addAndGet(rows.size());
                CompletableFuture.runAsync(() -> replaySwitch.set(false, new OperatorAction("admin", "stop replays now", Instant.now())))
                        .join();
                return rows;
            }
        };
        try (ReplayPublisher publisher = new ReplayPublisher(broker.bootstrapServers(), "it-" + NONCE + "-publisher", Duration.ofSeconds(10),
                1 << 20, Set.of())) {
            poller(switchedOffAfterClaim, publisher).pollOnce();
        }

        assertThat(claimed.get()).as("the round claimed the rows").isEqualTo(sources.size());
        assertThat(replaySwitch.isOn()).isFalse();
        for (Source source : sources) {
            OutboxRow row = app.getBean(ReplayOutbox.class).find(IncidentId.parse(source.incidentId()).replayId(1)).orElseThrow();
            assertThat(row.status()).isEqualTo(OutboxRow.Status.PENDING);
            assertThat(row.tries()).as("not even tried").isZero();
        }
        assertThat(endOffsets()).as("nothing was sent").isEqualTo(ends);

        Replays.setSwitch(app, true);
        app.getBean(OutboxPoller.class).pollOnce();
        await().atMost(WAIT).until(() -> publishedResults(sources) == sources.size());
    }

    /** A poller like the service's, on the service's beans, but with {@code outbox} and {@code publisher}. */
    private static OutboxPoller poller(ReplayOutbox outbox, ReplayPublisher publisher) {
        TransactionTemplate transactions = new TransactionTemplate(app.getBean(PlatformTransactionManager.class));
        transactions.setIsolationLevel(TransactionDefinition.ISOLATION_READ_COMMITTED);
        return new OutboxPoller(outbox, app.getBean(SourceRecordReader.class), publisher, app.getBean(EditContentStore.class),
                app.getBean(PartitionEndReader.class),
                app.getBean(ReplaySwitch.class), new ResultReporter(app.getBean(CommandGateway.class), app.getBean(TransactionManager.class)),
                transactions, new OutboxPoller.Settings(Duration.ofHours(1), 50, 3, Duration.ofMillis(100), Duration.ofSeconds(1),
                Duration.ofSeconds(2)), new SimpleMeterRegistry());
    }

    /** {@code count} source records over the partitions, each failed by {@link #GROUP}; waits until every incident is listed. */
    private static List<Source> failures(int count) throws Exception {
        List<Source> sources = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer = IngestLedger.producer(broker, Map.of())) {
            for (int i = 0; i < count; i++) {
                int n = ++sequence;
                String eventId = "evt-" + NONCE + "-" + n;
                byte[] key = ("order-" + n).getBytes(StandardCharsets.UTF_8);
                byte[] value = {(byte) 0xC3, 0x28, (byte) n, 0x00, (byte) 0xFF, (byte) (n >> 8)}; // not UTF-8
                long timestamp = Instant.now().minusSeconds(60).toEpochMilli() + n;
                RecordMetadata at = producer.send(Replays.record(ORDERS, n % PARTITIONS, timestamp, key, value, eventId)).get(30, TimeUnit.SECONDS);
                String id = Replays.sendFailure(producer, at, GROUP, key, value, eventId, Instant.ofEpochMilli(timestamp), DLQ);
                sources.add(new Source(at, id, key, value, timestamp, eventId));
            }
        }
        await().atMost(WAIT).until(() -> jdbc.queryForObject("SELECT COUNT(*) FROM incident_summary WHERE incident_id IN ("
                + placeholders(sources) + ")", Integer.class, incidentIds(sources)) == sources.size());
        return sources;
    }

    /** Every replay requested at once from 4 threads; each is accepted. */
    private static void requestAll(List<Source> sources) throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            List<Callable<HttpResponse<String>>> requests = new ArrayList<>();
            for (Source source : sources) {
                requests.add(() -> Replays.requestReplay(app, source.incidentId()));
            }
            for (Future<HttpResponse<String>> response : threads.invokeAll(requests, 2, TimeUnit.MINUTES)) {
                assertThat(response.get().statusCode()).as(response.get().body()).isEqualTo(202);
            }
        } finally {
            threads.shutdownNow();
        }
    }

    private static int pendingRows(List<Source> sources) {
        return jdbc.queryForObject("SELECT COUNT(*) FROM replay_outbox WHERE status = 'PENDING' AND incident_id IN (" + placeholders(sources)
                + ")", Integer.class, incidentIds(sources));
    }

    private static int publishedResults(List<Source> sources) {
        return jdbc.queryForObject("SELECT COUNT(*) FROM domain_event_entry WHERE payload_type LIKE '%.PublishResultRecorded' "
                + "AND aggregate_identifier IN (" + placeholders(sources) + ")", Integer.class, incidentIds(sources));
    }

    private static long[] endOffsets() {
        long[] ends = new long[PARTITIONS];
        try (var consumer = new org.apache.kafka.clients.consumer.KafkaConsumer<byte[], byte[]>(Map.of(
                org.apache.kafka.clients.consumer.ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()),
                new org.apache.kafka.common.serialization.ByteArrayDeserializer(), new org.apache.kafka.common.serialization.ByteArrayDeserializer())) {
            for (int p = 0; p < PARTITIONS; p++) {
                TopicPartition partition = new TopicPartition(ORDERS, p);
                ends[p] = consumer.endOffsets(List.of(partition)).get(partition);
            }
        }
        return ends;
    }

    private static String placeholders(List<Source> sources) {
        return String.join(", ", Collections.nCopies(sources.size(), "?"));
    }

    private static Object[] incidentIds(List<Source> sources) {
        return sources.stream().map(Source::incidentId).toArray();
    }
}

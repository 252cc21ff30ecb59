package io.dlqdesk.ingest.loop;

import io.dlqdesk.ingest.classify.Classification;
import io.dlqdesk.ingest.classify.ClassifierSettings;
import io.dlqdesk.ingest.classify.DlqRecordClassifier;
import io.dlqdesk.ingest.config.IngestHealthIndicator;
import io.dlqdesk.testsupport.DltRecord;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.RetriableCommitFailedException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.health.Status;

import java.sql.SQLTransientConnectionException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Faults inside the loop on a real broker: a failing commit, an exception escaping a rebalance
 * callback, and a callback that hangs. The loop recovers without losing a record, or readiness goes
 * DOWN within its bound. The effect of a record is recorded in memory: this is about the loop.
 */
@RealInfrastructure
class LoopFaultIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final Duration READINESS_BOUND = Duration.ofSeconds(3);
    private static final int RECORDS_PER_PARTITION = 20;

    private final Map<String, Integer> handled = new ConcurrentHashMap<>();
    private final AtomicBoolean failNextCommit = new AtomicBoolean();
    /** Commits outside a rebalance callback are refused (retriably) until a commit inside one has failed or hung. */
    private volatile boolean commitOnlyInsideRevocation;
    private final AtomicBoolean failNextCommitInsideRevocation = new AtomicBoolean();
    private final AtomicInteger commitsFailedInsideRevocation = new AtomicInteger();
    private final AtomicInteger commitsHungInsideRevocation = new AtomicInteger();
    private volatile CountDownLatch commitGate;
    private volatile boolean failBatches;
    private volatile int alwaysFailsOnPartition = -1;
    private volatile boolean databaseUnreachable;
    private final AtomicInteger batchesRefused = new AtomicInteger();
    private DlqConsumerLoop loop;

    @AfterEach
    void stopLoop() {
        CountDownLatch gate = commitGate;
        if (gate != null) {
            gate.countDown();
        }
        if (loop != null) {
            loop.stop();
        }
    }

    @Test
    void aCommitThatThrowsRestartsTheConsumerAndEveryRecordIsStillHandledAndCommitted(KafkaBroker broker) throws Exception {
        String topic = topicWithRecords(broker, "commit");
        failNextCommit.set(true);
        loop = startLoop(broker, topic);

        awaitAllHandledAndCommitted(broker, topic);
        assertThat(loop.health().lastError()).contains("injected commit failure");
        assertThat(health().getStatus()).isEqualTo(Status.UP);
    }

    @Test
    void anExceptionEscapingARebalanceCallbackRestartsTheConsumer(KafkaBroker broker) throws Exception {
        String topic = topicWithRecords(broker, "revoke");
        loop = startLoop(broker, topic);
        awaitAllHandledAndCommitted(broker, topic);

        // new records are written but their commit is left to the revocation callback, which then fails
        commitOnlyInsideRevocation = true;
        failNextCommitInsideRevocation.set(true);
        sendMore(broker, topic);
        awaitAllHandled(topic);
        assertThat(loop.health().lastError()).as("no failure before the rebalance").isNull();
        try (KafkaConsumer<byte[], byte[]> intruder = intruder(broker, topic)) {
            await().atMost(WAIT).until(() -> {
                intruder.poll(Duration.ofMillis(100));
                return loop.health().lastError() != null;
            });
        }
        assertThat(commitsFailedInsideRevocation.get()).as("the commit failed inside onPartitionsRevoked").isEqualTo(1);
        assertThat(loop.health().lastError()).contains("injected commit failure inside onPartitionsRevoked");
        awaitAllHandledAndCommitted(broker, topic);
        await().atMost(WAIT).until(() -> health().getStatus().equals(Status.UP));
    }

    @Test
    void aLoopStuckInARebalanceCallbackIsReportedNotReadyWithinTheBoundAndReadyAfterwards(KafkaBroker broker) throws Exception {
        String topic = topicWithRecords(broker, "hang");
        loop = startLoop(broker, topic);
        awaitAllHandledAndCommitted(broker, topic);
        assertThat(health().getStatus()).isEqualTo(Status.UP);

        commitOnlyInsideRevocation = true;
        commitGate = new CountDownLatch(1);
        sendMore(broker, topic);
        awaitAllHandled(topic);
        assertThat(health().getStatus()).isEqualTo(Status.UP);
        try (KafkaConsumer<byte[], byte[]> intruder = intruder(broker, topic)) {
            long stuckSince = System.nanoTime();
            await().atMost(WAIT).until(() -> {
                intruder.poll(Duration.ofMillis(100));
                return health().getStatus().equals(Status.DOWN);
            });
            assertThat(Duration.ofNanos(System.nanoTime() - stuckSince)).isLessThan(READINESS_BOUND.plus(Duration.ofSeconds(20)));
        }
        assertThat(commitsHungInsideRevocation.get()).as("the loop hangs inside onPartitionsRevoked").isEqualTo(1);
        commitGate.countDown();
        await().atMost(WAIT).until(() -> health().getStatus().equals(Status.UP));
        awaitAllHandledAndCommitted(broker, topic);
    }

    @Test
    void aBatchThatCannotBeWrittenIsWrittenRecordByRecord(KafkaBroker broker) throws Exception {
        String topic = topicWithRecords(broker, "batch");
        failBatches = true;
        loop = startLoop(broker, topic);

        awaitAllHandledAndCommitted(broker, topic);
        assertThat(batchesRefused.get()).isPositive();
    }

    @Test
    void recordsThatKeepFailingHoldOnlyTheirOwnPartition(KafkaBroker broker) throws Exception {
        String topic = topicWithRecords(broker, "stuck");
        alwaysFailsOnPartition = 0; // more failing records than workers
        loop = startLoop(broker, topic);

        await().atMost(WAIT).untilAsserted(() -> {
            for (long offset = 0; offset < RECORDS_PER_PARTITION; offset++) {
                assertThat(handled).containsKey(topic + "/1/" + offset);
            }
            assertThat(committed(broker, topic, 1)).isEqualTo((long) RECORDS_PER_PARTITION);
            // not even their quarantine rows can be written: after their tries partition 0 is held, its records leave their slots
            assertThat(loop.health().blockedPartitions()).containsOnlyKeys(topic + "-0");
            assertThat(loop.health().inFlight()).isZero();
        });
        assertThat(committed(broker, topic, 0)).isNull();
        assertThat(handled.keySet()).noneMatch(key -> key.startsWith(topic + "/0/"));
        // the failures are the records' own, not an unreachable database, and they hold no slot: still ready well past the bound
        await().during(READINESS_BOUND.plusSeconds(2)).atMost(WAIT).until(() -> health().getStatus().equals(Status.UP));
    }

    @Test
    void whileWritesCannotReachTheDatabaseReadinessIsDownAndUpOnceTheyAreWritten(KafkaBroker broker) throws Exception {
        String topic = topicWithRecords(broker, "unreachable");
        databaseUnreachable = true;
        loop = startLoop(broker, topic);

        await().atMost(WAIT).until(() -> health().getStatus().equals(Status.DOWN));
        assertThat(health().getDetails()).containsEntry("databaseUnreachable", true);
        assertThat(handled).isEmpty();

        databaseUnreachable = false;
        awaitAllHandledAndCommitted(broker, topic);
        await().atMost(WAIT).until(() -> health().getStatus().equals(Status.UP));
    }

    @Test
    void whileNoBrokerAnswersReadinessIsDownThoughPollsGoOnAndUpAfter(KafkaBroker broker) throws Exception {
        Assumptions.assumeTrue(broker.restartable(), () -> broker.description() + " cannot be stopped by tests");
        String topic = topicWithRecords(broker, "nobroker");
        loop = startLoop(broker, topic);
        awaitAllHandledAndCommitted(broker, topic);
        assertThat(health().getStatus()).isEqualTo(Status.UP);

        broker.stop();
        try {
            await().atMost(WAIT).until(() -> health().getStatus().equals(Status.DOWN));
            assertThat(Duration.between(loop.health().lastPoll(), Instant.now())).as("the loop still polls").isLessThan(READINESS_BOUND);
        } finally {
            broker.start();
        }
        await().atMost(WAIT).until(() -> health().getStatus().equals(Status.UP));
        sendMore(broker, topic);
        awaitAllHandledAndCommitted(broker, topic);
    }

    private DlqConsumerLoop startLoop(KafkaBroker broker, String topic) {
        Map<String, Object> config = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, group(topic),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        LoopSettings settings = new LoopSettings(Pattern.compile(Pattern.quote(topic)), MalformedPolicy.QUARANTINE, 16, 100, 8,
                Duration.ofMillis(100), Duration.ofSeconds(5), Duration.ofMillis(50), Duration.ofMillis(500), Duration.ofMillis(200), 3, Duration.ZERO);
        DlqRecordClassifier classifier = new DlqRecordClassifier(ClassifierSettings.defaults());
        RecordHandler recording = new RecordHandler() {
            @Override
            public void handle(ConsumerRecord<byte[], byte[]> record, Classification classification) {
                if (record.partition() == alwaysFailsOnPartition) {
                    throw new IllegalStateException("injected permanent failure");
                }
                if (databaseUnreachable) {
                    throw new IllegalStateException("write failed", new SQLTransientConnectionException("injected: connection is not available"));
                }
                handled.merge(record.topic() + "/" + record.partition() + "/" + record.offset(), 1, Integer::sum);
            }

            @Override
            public void handleAll(List<Classified> records) throws Exception {
                if (databaseUnreachable) {
                    throw new IllegalStateException("batch failed", new SQLTransientConnectionException("injected: connection is not available"));
                }
                if (failBatches) {
                    batchesRefused.incrementAndGet();
                    throw new IllegalStateException("injected batch failure");
                }
                RecordHandler.super.handleAll(records);
            }
        };
        LoopHealth loopHealth = new LoopHealth(Clock.systemUTC());
        DlqConsumerLoop started = new DlqConsumerLoop(() -> new FaultyConsumer(config), classifier::classify, recording,
                settings, Executors.newFixedThreadPool(2), loopHealth, new IngestMetrics(new SimpleMeterRegistry(), loopHealth));
        started.start();
        return started;
    }

    private org.springframework.boot.actuate.health.Health health() {
        return IngestHealthIndicator.readiness(loop.health(), READINESS_BOUND, Clock.systemUTC()).health();
    }

    private void awaitAllHandledAndCommitted(KafkaBroker broker, String topic) throws Exception {
        await().atMost(WAIT).untilAsserted(() -> {
            long end = endOffset(broker, topic);
            for (int partition = 0; partition < 2; partition++) {
                for (long offset = 0; offset < end; offset++) {
                    assertThat(handled).containsKey(topic + "/" + partition + "/" + offset);
                }
                assertThat(committed(broker, topic, partition)).isEqualTo(end);
            }
        });
    }

    private void awaitAllHandled(String topic) {
        await().atMost(WAIT).untilAsserted(() -> {
            for (int partition = 0; partition < 2; partition++) {
                for (long offset = 0; offset < ends.get(topic); offset++) {
                    assertThat(handled).containsKey(topic + "/" + partition + "/" + offset);
                }
            }
        });
    }

    private final Map<String, Long> ends = new ConcurrentHashMap<>();

    private long endOffset(KafkaBroker broker, String topic) {
        return ends.get(topic);
    }

    private String topicWithRecords(KafkaBroker broker, String name) throws Exception {
        String topic = "loop-" + name + "-" + System.nanoTime() + ".dlq";
        try (Admin admin = broker.admin()) {
            admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        ends.put(topic, 0L);
        sendMore(broker, topic);
        return topic;
    }

    /** Appends the same number of records to both partitions. */
    private void sendMore(KafkaBroker broker, String topic) throws Exception {
        long from = ends.get(topic);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            for (long offset = from; offset < from + RECORDS_PER_PARTITION; offset++) {
                for (int partition = 0; partition < 2; partition++) {
                    producer.send(DltRecord.failure("orders", partition, offset, "billing").to(topic, partition));
                }
            }
            producer.flush();
        }
        ends.put(topic, from + RECORDS_PER_PARTITION);
    }

    private static KafkaConsumer<byte[], byte[]> intruder(KafkaBroker broker, String topic) {
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, group(topic),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false),
                new ByteArrayDeserializer(), new ByteArrayDeserializer());
        consumer.subscribe(List.of("unrelated-" + topic)); // joins the group and forces a rebalance, takes nothing of ours
        return consumer;
    }

    private static String group(String topic) {
        return "group-" + topic;
    }

    private static Long committed(KafkaBroker broker, String topic, int partition) throws Exception {
        return broker.committedOffset(group(topic), new TopicPartition(topic, partition));
    }


    /**
     * A real consumer whose commits can be made to fail once or to hang; with {@code commitOnlyInsideRevocation}
     * the fault strikes only a commit made inside a revocation callback (read from the call stack), and
     * commits made elsewhere are refused retriably until then.
     */
    private final class FaultyConsumer extends KafkaConsumer<byte[], byte[]> {

        FaultyConsumer(Map<String, Object> config) {
            super(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        }

        @Override
        public void commitSync(Map<TopicPartition, OffsetAndMetadata> offsets, Duration timeout) {
            if (failNextCommit.compareAndSet(true, false)) {
                throw new KafkaException("injected commit failure");
            }
            if (commitOnlyInsideRevocation) {
                if (!insideRevocationCallback()) {
                    throw new RetriableCommitFailedException("held back by the test until the revocation callback commits");
                }
                commitOnlyInsideRevocation = false;
                if (failNextCommitInsideRevocation.compareAndSet(true, false)) {
                    commitsFailedInsideRevocation.incrementAndGet();
                    throw new KafkaException("injected commit failure inside onPartitionsRevoked");
                }
                if (commitGate != null) {
                    commitsHungInsideRevocation.incrementAndGet();
                }
            }
            CountDownLatch gate = commitGate;
            if (gate != null) {
                try {
                    gate.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            super.commitSync(offsets, timeout);
        }

        private static boolean insideRevocationCallback() {
            return StackWalker.getInstance().walk(frames -> frames.anyMatch(frame -> frame.getMethodName().equals("onPartitionsRevoked")));
        }
    }
}

package io.dlqdesk.ingest.loop;

import io.dlqdesk.ingest.classify.ClassifierSettings;
import io.dlqdesk.ingest.classify.DlqRecordClassifier;
import io.dlqdesk.testsupport.DltRecord;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Stopping the loop on the real broker (a rolling deploy's SIGTERM): records in flight are written before their offsets
 * are committed and the group is left, so the next owner starts after them at once; past the drain timeout they are
 * abandoned, nothing of them committed, and the next owner writes them. The writes wait at a gate the test opens.
 */
@RealInfrastructure
class IngestDrainIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final int RECORDS = 4;

    private final CountDownLatch gate = new CountDownLatch(1);
    private final Set<Long> written = ConcurrentHashMap.newKeySet();
    private DlqConsumerLoop loop;

    @AfterEach
    void stop() {
        gate.countDown();
        if (loop != null) {
            loop.stop();
        }
    }

    @Test
    void onStopTheRecordsInFlightAreWrittenThenCommittedAndTheGroupIsLeft(KafkaBroker broker) throws Exception {
        String topic = topic(broker);
        loop = startLoop(broker, topic, Duration.ofSeconds(30));
        await().atMost(WAIT).until(() -> loop.health().inFlight() == RECORDS);

        CompletableFuture<Void> stopping = CompletableFuture.runAsync(loop::stop);
        Thread.sleep(1_000); // stopping, and still waiting for the records in flight
        assertThat(stopping).as("a stop waits for the records in flight").isNotDone();
        assertThat(broker.committedOffset(group(topic), partition(topic))).as("nothing committed before they are written").isNull();

        gate.countDown();
        stopping.get(30, TimeUnit.SECONDS);
        assertThat(written).hasSize(RECORDS);
        assertThat(broker.committedOffset(group(topic), partition(topic))).as("committed past every record written").isEqualTo(RECORDS);
        assertThat(members(broker, topic)).as("the stopped loop left the group").isZero();
    }

    @Test
    void pastTheDrainTimeoutTheRecordsInFlightAreAbandonedUncommittedAndTheNextOwnerWritesThem(KafkaBroker broker) throws Exception {
        String topic = topic(broker);
        loop = startLoop(broker, topic, Duration.ofMillis(500));
        await().atMost(WAIT).until(() -> loop.health().inFlight() == RECORDS);

        long start = System.nanoTime();
        loop.stop();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("the stop waited no longer than the drain timeout and the leave")
                .isLessThan(Duration.ofSeconds(10));
        assertThat(written).as("the gate is still shut").isEmpty();
        assertThat(broker.committedOffset(group(topic), partition(topic))).as("nothing committed of abandoned records").isNull();
        assertThat(members(broker, topic)).as("the stopped loop left the group").isZero();

        gate.countDown();
        loop = startLoop(broker, topic, Duration.ofSeconds(30)); // the next owner
        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(written).hasSize(RECORDS);
            assertThat(broker.committedOffset(group(topic), partition(topic))).isEqualTo(RECORDS);
        });
    }

    private static String topic(KafkaBroker broker) throws Exception {
        String topic = "drain-" + System.nanoTime() + ".dlq";
        try (Admin admin = broker.admin()) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            for (long offset = 0; offset < RECORDS; offset++) {
                producer.send(DltRecord.failure("orders", 0, offset, "billing").to(topic, 0));
            }
            producer.flush();
        }
        return topic;
    }

    private DlqConsumerLoop startLoop(KafkaBroker broker, String topic, Duration drainTimeout) {
        Map<String, Object> config = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, group(topic),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        // one record per worker: no batch, each waits at the gate on its own
        LoopSettings settings = new LoopSettings(Pattern.compile(Pattern.quote(topic)), MalformedPolicy.QUARANTINE, RECORDS, 100, 1,
                Duration.ofMillis(100), Duration.ofSeconds(5), Duration.ofMillis(50), Duration.ofMillis(200), Duration.ofMillis(200), 3, drainTimeout);
        LoopHealth health = new LoopHealth(Clock.systemUTC());
        RecordHandler gated = (record, classification) -> {
            if (!gate.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("the gate stayed shut");
            }
            written.add(record.offset());
        };
        DlqConsumerLoop started = new DlqConsumerLoop(
                () -> new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer()),
                new DlqRecordClassifier(ClassifierSettings.defaults())::classify, gated, settings, Executors.newFixedThreadPool(RECORDS),
                health, new IngestMetrics(new SimpleMeterRegistry(), health));
        started.start();
        return started;
    }

    private static int members(KafkaBroker broker, String topic) throws Exception {
        try (Admin admin = broker.admin()) {
            return admin.describeConsumerGroups(List.of(group(topic))).all().get(10, TimeUnit.SECONDS).get(group(topic)).members().size();
        }
    }

    private static TopicPartition partition(String topic) {
        return new TopicPartition(topic, 0);
    }

    private static String group(String topic) {
        return "group-" + topic;
    }
}

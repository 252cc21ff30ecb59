package io.dlqdesk.ingest.loop;

import io.dlqdesk.ingest.classify.ClassifierSettings;
import io.dlqdesk.ingest.classify.DlqRecordClassifier;
import io.dlqdesk.testsupport.DltRecord;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.micrometer.core.instrument.MeterRegistry;
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
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The ingest lag on the real broker: records sent and not yet written count as lag of their partition, whether they
 * wait unfetched behind a paused partition or hold a worker slot, records sent while every partition is paused
 * included; once written and committed the lag is 0. The writes are held at a gate, so nothing completes until the
 * test opens it.
 */
@RealInfrastructure
class IngestLagIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final int PARTITIONS = 3;
    private static final int MAX_IN_FLIGHT = 4;

    private final MeterRegistry meters = new SimpleMeterRegistry();
    private final CountDownLatch gate = new CountDownLatch(1);
    private final Map<TopicPartition, Integer> written = new ConcurrentHashMap<>();
    private DlqConsumerLoop loop;

    @AfterEach
    void stop() {
        gate.countDown();
        if (loop != null) {
            loop.stop();
        }
    }

    @Test
    void recordsNotYetIngestedAreLagAndTheLagIsZeroOnceTheyAre(KafkaBroker broker) throws Exception {
        String topic = "lag-" + System.nanoTime() + ".dlq";
        try (Admin admin = broker.admin()) {
            admin.createTopics(List.of(new NewTopic(topic, PARTITIONS, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        send(broker, topic, 0, 10); // 30 records, far more than max-in-flight: most wait unfetched behind paused partitions
        loop = startLoop(broker, topic);

        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(loop.health().lagByPartition()).as("every partition's records, none written")
                    .containsOnly(lag(topic, 0, 10), lag(topic, 1, 10), lag(topic, 2, 10));
            assertThat(meters.get("dlq.ingest.lag").gauge().value()).isEqualTo(30.0);
            // the lag is known from the end offsets before the first fetch hands any record to a worker
            assertThat(loop.health().inFlight()).as("some hold a worker slot").isPositive();
        });

        send(broker, topic, 10, 15); // while every partition is paused on work in flight
        await().atMost(WAIT).untilAsserted(() -> assertThat(loop.health().lagByPartition())
                .containsOnly(lag(topic, 0, 15), lag(topic, 1, 15), lag(topic, 2, 15)));
        assertThat(written).isEmpty();

        gate.countDown();
        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(loop.health().lagByPartition()).containsOnly(lag(topic, 0, 0), lag(topic, 1, 0), lag(topic, 2, 0));
            assertThat(meters.get("dlq.ingest.lag").gauge().value()).isZero();
        });
        for (int partition = 0; partition < PARTITIONS; partition++) {
            assertThat(broker.committedOffset(group(topic), new TopicPartition(topic, partition))).as("lag 0 means committed").isEqualTo(15L);
        }
        assertThat(written.values()).containsOnly(15);
    }

    private static Map.Entry<TopicPartition, Long> lag(String topic, int partition, long records) {
        return Map.entry(new TopicPartition(topic, partition), records);
    }

    private DlqConsumerLoop startLoop(KafkaBroker broker, String topic) {
        Map<String, Object> config = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, group(topic),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed", // as the service reads
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG, MAX_IN_FLIGHT);
        LoopSettings settings = new LoopSettings(Pattern.compile(Pattern.quote(topic)), MalformedPolicy.QUARANTINE, MAX_IN_FLIGHT, 100, 8,
                Duration.ofMillis(100), Duration.ofSeconds(5), Duration.ofMillis(50), Duration.ofMillis(200), Duration.ofMillis(200), 3, Duration.ofSeconds(10));
        LoopHealth health = new LoopHealth(Clock.systemUTC());
        RecordHandler gated = (record, classification) -> {
            if (!gate.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("the gate stayed shut");
            }
            written.merge(new TopicPartition(record.topic(), record.partition()), 1, Integer::sum);
        };
        DlqConsumerLoop started = new DlqConsumerLoop(
                () -> new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer()),
                new DlqRecordClassifier(ClassifierSettings.defaults())::classify, gated, settings, Executors.newFixedThreadPool(MAX_IN_FLIGHT),
                health, new IngestMetrics(meters, health));
        started.start();
        return started;
    }

    /** Offsets {@code from}..{@code to}-1 of an original topic, on every partition. */
    private static void send(KafkaBroker broker, String topic, long from, long to) {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            for (long offset = from; offset < to; offset++) {
                for (int partition = 0; partition < PARTITIONS; partition++) {
                    producer.send(DltRecord.failure("orders", partition, offset, "billing").to(topic, partition));
                }
            }
            producer.flush();
        }
    }

    private static String group(String topic) {
        return "group-" + topic;
    }
}

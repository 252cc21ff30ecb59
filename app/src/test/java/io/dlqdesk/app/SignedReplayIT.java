package io.dlqdesk.app;

import io.dlqdesk.consumer.Decision;
import io.dlqdesk.consumer.MicrometerSkippedReplays;
import io.dlqdesk.consumer.ReplayKeys;
import io.dlqdesk.consumer.ReplayRecordFilter;
import io.dlqdesk.consumer.SkippedReplays;
import io.dlqdesk.consumer.TargetGroupFilter;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.domain.replay.ReplayHeaders;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Group-scoped replay cannot be forged, on the real broker and database. The orders service (group {@code orders-service})
 * fails records and the desk replays them to it; a shipping service reads the same topic in its own group with
 * dlq-desk-consumer, holding the desk's keys. A plain producer's record carrying the target-group header for the
 * orders service is processed by shipping; the desk's signed replays for the orders service are skipped, before and
 * after the desk's key is rotated (shipping holding the old and the new key, the desk signing with the new one).
 */
@RealInfrastructure
class SignedReplayIT {

    private static final String NONCE = "s" + System.nanoTime();
    private static final String ORDERS = Replays.ordersTopic(NONCE);
    private static final String GROUP = "orders-service";
    private static final String SHIPPING = "shipping-" + NONCE;
    private static final String OLD_SECRET = "an-example-secret-of-at-least-32-bytes";
    private static final String NEW_SECRET = "a-second-secret-for-rotation-0123456789";
    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final TopicPartition PARTITION = new TopicPartition(ORDERS, 0);

    private static TestDatabase database;
    private static KafkaBroker broker;
    private static ConfigurableApplicationContext desk;
    private static OrdersService orders;
    private static KafkaProducer<byte[], byte[]> producer;
    private static Shipping shipping;

    @BeforeAll
    static void start(TestDatabase db, KafkaBroker kafka) throws Exception {
        database = db;
        broker = kafka;
        IngestLedger.createTopic(broker, ORDERS, 1, Map.of());
        IngestLedger.createTopic(broker, ORDERS + ".dlq", 1, Map.of());
        desk = startDesk("k1", Map.of("k1", OLD_SECRET));
        orders = new OrdersService(broker, ORDERS, GROUP);
        orders.start();
        producer = IngestLedger.producer(broker, Map.of());
        shipping = new Shipping(broker, ReplayKeys.of(Map.of("k1", OLD_SECRET, "k2", NEW_SECRET)));
    }

    @AfterAll
    static void stop() throws Exception {
        shipping.close();
        orders.close();
        producer.close();
        desk.close();
    }

    @Test
    void forgedReplaysAreProcessedAndSignedOnesSkippedAcrossAKeyRotation() throws Exception {
        // anyone who can produce to the topic can write the desk's headers
        ProducerRecord<byte[], byte[]> forged = Replays.record(ORDERS, 0, Instant.now().toEpochMilli(), utf8("order-f"), utf8("{}"),
                "evt-" + NONCE + "-forged");
        forged.headers().add(ReplayHeaders.TARGET_GROUP, utf8(GROUP));
        forged.headers().add(ReplayHeaders.OWNER, utf8("dlq-incident-desk"));
        forged.headers().add(ReplayHeaders.ROOT_INCIDENT_ID, utf8(IncidentId.of(new FailureKey(ORDERS, 0, 0, GROUP)).value()));
        forged.headers().add(ReplayHeaders.ATTEMPT, utf8("1"));
        forged.headers().add(ReplayHeaders.SIGNATURE, utf8("v1:k1:" + "A".repeat(43)));
        producer.send(forged).get(30, TimeUnit.SECONDS);
        await().atMost(WAIT).until(() -> shipping.processed("evt-" + NONCE + "-forged") == 1);
        assertThat(shipping.kept(Decision.KEEP_BAD_SIGNATURE)).isEqualTo(1.0);
        RecordHeaders unsigned = new RecordHeaders(forged.headers().toArray()); // a sent record's headers are read-only
        unsigned.remove(ReplayHeaders.SIGNATURE);
        producer.send(new ProducerRecord<>(ORDERS, 0, forged.timestamp(), forged.key(), forged.value(), unsigned)).get(30, TimeUnit.SECONDS);
        await().atMost(WAIT).until(() -> shipping.processed("evt-" + NONCE + "-forged") == 2);
        assertThat(shipping.kept(Decision.KEEP_UNSIGNED)).isEqualTo(1.0);

        ConsumerRecord<byte[], byte[]> signedWithOld = replayedOnce("evt-" + NONCE + "-1");
        assertThat(Replays.header(signedWithOld, ReplayHeaders.SIGNATURE)).startsWith("v1:k1:");

        desk.close(); // rotation: shipping already holds both keys, the desk now signs with the new one only
        desk = startDesk("k2", Map.of("k2", NEW_SECRET));
        ConsumerRecord<byte[], byte[]> signedWithNew = replayedOnce("evt-" + NONCE + "-2");
        assertThat(Replays.header(signedWithNew, ReplayHeaders.SIGNATURE)).startsWith("v1:k2:");
        assertThat(TargetGroupFilter.forGroup(SHIPPING, ReplayKeys.of("k1", OLD_SECRET)).decide(signedWithNew))
                .as("a consumer that was not given the new key processes the new replays").isEqualTo(Decision.KEEP_UNKNOWN_KEY);

        assertThat(shipping.skipped()).as("both replays skipped (published at least once)").isGreaterThanOrEqualTo(2.0);
        assertThat(desk.getBean(MeterRegistry.class).get("dlq.replay.signing.active").gauge().value()).isEqualTo(1.0);
    }

    /**
     * A record the orders service fails on: shipping processes the original; the desk replays it for the orders service, which
     * processes it now; shipping moves past the replay without processing it. The replay, as published.
     */
    private static ConsumerRecord<byte[], byte[]> replayedOnce(String eventId) throws Exception {
        orders.failing.add(eventId);
        RecordMetadata sent = producer.send(Replays.record(ORDERS, 0, Instant.now().toEpochMilli(), utf8("order-" + eventId), utf8("{\"order\":1}"),
                eventId)).get(30, TimeUnit.SECONDS);
        String id = IncidentId.of(new FailureKey(ORDERS, 0, sent.offset(), GROUP)).value();
        await().atMost(WAIT).until(() -> Replays.incidentsOf(desk, ORDERS).contains(id));
        orders.failing.remove(eventId);

        assertThat(Replays.requestReplay(desk, id).statusCode()).isEqualTo(202);
        await().atMost(WAIT).until(() -> !Replays.replaysOn(broker, PARTITION, sent.offset() + 1, id).isEmpty());
        ConsumerRecord<byte[], byte[]> replay = Replays.replaysOn(broker, PARTITION, sent.offset() + 1, id).get(0);
        await().atMost(WAIT).until(() -> orders.effectsOf(eventId) == 1);
        await().atMost(WAIT).until(() -> committed(SHIPPING) > replay.offset());
        assertThat(shipping.processed(eventId)).as("shipping processed the original, skipped the replay").isEqualTo(1);
        return replay;
    }

    private static ConfigurableApplicationContext startDesk(String activeKeyId, Map<String, String> keys) throws Exception {
        Map<String, Object> settings = new java.util.HashMap<>(Map.of(
                "dlqdesk.replay.poll-interval", "200ms",
                "dlqdesk.replay.signing.active-key-id", activeKeyId));
        keys.forEach((keyId, secret) -> settings.put("dlqdesk.replay.signing.keys." + keyId, secret));
        return Replays.service(database, broker, NONCE, settings);
    }

    private static long committed(String group) throws Exception {
        Long offset = broker.committedOffset(group, PARTITION);
        return offset == null ? -1 : offset;
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** A service in its own group, written with dlq-desk-consumer and a plain kafka-clients consumer; commits after every poll. */
    private static final class Shipping implements AutoCloseable {

        private final Map<String, Integer> processed = new ConcurrentHashMap<>();
        private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
        private final ReplayRecordFilter filter;
        private final KafkaConsumer<byte[], byte[]> consumer;
        private final Thread thread;
        private volatile boolean running = true;

        Shipping(KafkaBroker broker, ReplayKeys keys) {
            SkippedReplays counted = MicrometerSkippedReplays.countingOn(meters);
            filter = new ReplayRecordFilter(TargetGroupFilter.forGroup(SHIPPING, keys), counted);
            consumer = new KafkaConsumer<>(Map.of(
                    ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                    ConsumerConfig.GROUP_ID_CONFIG, SHIPPING,
                    ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                    ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false), new ByteArrayDeserializer(), new ByteArrayDeserializer());
            consumer.subscribe(List.of(ORDERS));
            thread = new Thread(this::run, "shipping-consumer");
            thread.setDaemon(true);
            thread.start();
        }

        private void run() {
            try {
                while (running) {
                    for (ConsumerRecord<byte[], byte[]> record : filter.kept(consumer.poll(Duration.ofMillis(200)))) {
                        Header header = record.headers().lastHeader("eventId");
                        processed.merge(header == null ? "(none)" : new String(header.value(), StandardCharsets.UTF_8), 1, Integer::sum);
                    }
                    consumer.commitSync(Duration.ofSeconds(10)); // the polled position: past the skipped records too
                }
            } catch (WakeupException e) {
                // closing
            } finally {
                consumer.close(Duration.ofSeconds(5));
            }
        }

        int processed(String eventId) {
            return processed.getOrDefault(eventId, 0);
        }

        double skipped() {
            Counter counter = meters.find(MicrometerSkippedReplays.METER).tags("group", SHIPPING, "target_group", SkippedReplays.OTHER).counter();
            return counter == null ? 0 : counter.count();
        }

        double kept(Decision decision) {
            Counter counter = meters.find(MicrometerSkippedReplays.KEPT_METER)
                    .tags("group", SHIPPING, "target_group", SkippedReplays.OTHER, "decision", decision.name()).counter();
            return counter == null ? 0 : counter.count();
        }

        @Override
        public void close() throws InterruptedException {
            running = false;
            consumer.wakeup();
            thread.join(TimeUnit.SECONDS.toMillis(30));
        }
    }
}

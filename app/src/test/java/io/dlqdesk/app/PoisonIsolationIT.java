package io.dlqdesk.app;

import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.testsupport.DltRecord;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * One malformed DLQ record must never stall another partition: on the real broker and database,
 * under both malformed-record policies, and across a restart.
 */
@RealInfrastructure
class PoisonIsolationIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String FAILING_GROUP = "billing";

    @Test
    void underQuarantineTheBadRecordIsKeptAndItsPartitionMovesOn(TestDatabase database, KafkaBroker broker) throws Exception {
        Scenario scenario = Scenario.produce(broker, "q" + System.nanoTime());
        Map<String, Object> config = scenario.config("quarantine");

        try (ConfigurableApplicationContext app = RunningApp.start(database, broker, config)) {
            JdbcTemplate jdbc = app.getBean(JdbcTemplate.class);
            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(IngestLedger.incidentsOpened(jdbc, scenario.healthy())).containsOnly(1);
                assertThat(quarantined(jdbc, scenario)).isEqualTo(1);
                // every record of every partition is committed, the bad one included
                assertThat(broker.committedOffset(scenario.groupId(), scenario.badPartition())).isEqualTo(scenario.endOf(scenario.badPartition()));
                assertThat(broker.committedOffset(scenario.groupId(), scenario.otherPartition())).isEqualTo(scenario.endOf(scenario.otherPartition()));
                assertThat(broker.committedOffset(scenario.groupId(), scenario.otherTopic())).isEqualTo(scenario.endOf(scenario.otherTopic()));
            });
            assertThat(jdbc.queryForObject("SELECT reason FROM dlq_quarantine WHERE dlq_topic = ? AND dlq_offset = ?", String.class,
                    scenario.badPartition().topic(), scenario.badOffset())).contains("kafka_dlt-original-consumer-group");
        }

        try (ConfigurableApplicationContext app = RunningApp.start(database, broker, config)) {
            JdbcTemplate jdbc = app.getBean(JdbcTemplate.class);
            // a record sent after the restart is ingested after anything the new consumer re-read on that partition
            FailureKey sentinel = scenario.sendSentinel(broker, scenario.badPartition());
            await().atMost(WAIT).untilAsserted(() -> assertThat(IngestLedger.incidentsOpened(jdbc, List.of(sentinel))).containsOnly(1));
            assertThat(IngestLedger.incidentsOpened(jdbc, scenario.healthy())).containsOnly(1);
            assertThat(quarantined(jdbc, scenario)).isEqualTo(1);
        }
    }

    @Test
    void underPausePartitionTheBadPartitionHoldsWhileTheOthersFlow(TestDatabase database, KafkaBroker broker) throws Exception {
        Scenario scenario = Scenario.produce(broker, "p" + System.nanoTime());
        Map<String, Object> config = scenario.config("pause-partition");
        List<FailureKey> flowing = scenario.healthy().stream().filter(key -> !key.equals(scenario.afterBad())).toList();

        try (ConfigurableApplicationContext app = RunningApp.start(database, broker, config)) {
            JdbcTemplate jdbc = app.getBean(JdbcTemplate.class);
            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(IngestLedger.incidentsOpened(jdbc, flowing)).containsOnly(1);
                assertThat(broker.committedOffset(scenario.groupId(), scenario.otherPartition())).isEqualTo(scenario.endOf(scenario.otherPartition()));
                assertThat(broker.committedOffset(scenario.groupId(), scenario.otherTopic())).isEqualTo(scenario.endOf(scenario.otherTopic()));
                // the record before the bad one is committed, the bad one is not
                assertThat(broker.committedOffset(scenario.groupId(), scenario.badPartition())).isEqualTo(scenario.badOffset());
            });
            assertThat(IngestLedger.incidentsOpened(jdbc, List.of(scenario.afterBad()))).containsOnly(0);
            assertThat(quarantined(jdbc, scenario)).isZero();
            String readiness = RunningApp.get(app, "/actuator/health/readiness", "admin", RunningApp.PASSWORD).body(); // details: admin only
            assertThat(readiness).contains("\"status\":\"UP\"").contains(scenario.badPartition().toString());
            assertThat(app.getBean(MeterRegistry.class).get("dlq.ingest.paused_partitions").gauge().value()).isEqualTo(1.0);
        }

        try (ConfigurableApplicationContext app = RunningApp.start(database, broker, config)) {
            JdbcTemplate jdbc = app.getBean(JdbcTemplate.class);
            FailureKey sentinel = scenario.sendSentinel(broker, scenario.otherPartition());
            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(IngestLedger.incidentsOpened(jdbc, List.of(sentinel))).containsOnly(1);
                assertThat(RunningApp.get(app, "/actuator/health/readiness", "admin", RunningApp.PASSWORD).body())
                        .contains(scenario.badPartition().toString());
            });
            assertThat(IngestLedger.incidentsOpened(jdbc, flowing)).containsOnly(1);
            assertThat(IngestLedger.incidentsOpened(jdbc, List.of(scenario.afterBad()))).containsOnly(0);
            assertThat(broker.committedOffset(scenario.groupId(), scenario.badPartition())).isEqualTo(scenario.badOffset());
        }
    }


    private static int quarantined(JdbcTemplate jdbc, Scenario scenario) {
        return jdbc.queryForObject("SELECT COUNT(*) FROM dlq_quarantine WHERE dlq_topic IN (?, ?)", Integer.class,
                scenario.badPartition().topic(), scenario.otherTopic().topic());
    }


    /**
     * Two DLQ topics: {@code <n>-orders.dlq} with two partitions (partition 0: healthy, bad, healthy;
     * partition 1: healthy, healthy) and {@code <n>-payments.dlq} (healthy, healthy).
     */
    private record Scenario(String nonce, List<FailureKey> healthy, FailureKey afterBad, TopicPartition badPartition, long badOffset,
                            TopicPartition otherPartition, TopicPartition otherTopic, Map<TopicPartition, Long> ends) {

        static Scenario produce(KafkaBroker broker, String nonce) throws Exception {
            String orders = "it-" + nonce + "-orders.dlq";
            String payments = "it-" + nonce + "-payments.dlq";
            IngestLedger.createTopic(broker, orders, 2, Map.of());
            IngestLedger.createTopic(broker, payments, 1, Map.of());
            try (KafkaProducer<byte[], byte[]> producer = IngestLedger.producer(broker, Map.of())) {
                // original topics are per scenario too: the failure key, and so the incident, names them
                String ordersOriginal = "orders-" + nonce;
                String paymentsOriginal = "payments-" + nonce;
                FailureKey first = send(producer, orders, 0, ordersOriginal, 0, 100);
                // no failing group: it cannot be attributed, so it can never become an incident
                long badOffset = producer.send(DltRecord.failure(ordersOriginal, 0, 101, FAILING_GROUP)
                        .without("kafka_dlt-original-consumer-group").to(orders, 0)).get(30, TimeUnit.SECONDS).offset();
                FailureKey afterBad = send(producer, orders, 0, ordersOriginal, 0, 102);
                FailureKey p1a = send(producer, orders, 1, ordersOriginal, 1, 200);
                FailureKey p1b = send(producer, orders, 1, ordersOriginal, 1, 201);
                FailureKey payA = send(producer, payments, 0, paymentsOriginal, 0, 300);
                FailureKey payB = send(producer, payments, 0, paymentsOriginal, 0, 301);
                TopicPartition bad = new TopicPartition(orders, 0);
                TopicPartition other = new TopicPartition(orders, 1);
                TopicPartition otherTopic = new TopicPartition(payments, 0);
                return new Scenario(nonce, List.of(first, afterBad, p1a, p1b, payA, payB), afterBad, bad, badOffset, other, otherTopic,
                        Map.of(bad, 3L, other, 2L, otherTopic, 2L));
            }
        }

        FailureKey sendSentinel(KafkaBroker broker, TopicPartition partition) throws Exception {
            try (KafkaProducer<byte[], byte[]> producer = IngestLedger.producer(broker, Map.of())) {
                String original = (partition.topic().contains("-orders.") ? "orders-" : "payments-") + nonce;
                return send(producer, partition.topic(), partition.partition(), original, partition.partition(), 900);
            }
        }


        Map<String, Object> config(String policy) {
            return Map.of(
                    "dlqdesk.ingest.topic-pattern", "it-" + nonce + "-.*\\.dlq",
                    "dlqdesk.ingest.group-id", groupId(),
                    "dlqdesk.ingest.malformed-policy", policy,
                    "dlqdesk.events-topic", "it-" + nonce + "-incident-events");
        }

        String groupId() {
            return "ingest-" + nonce;
        }

        long endOf(TopicPartition partition) {
            return ends.get(partition);
        }

        private static FailureKey send(KafkaProducer<byte[], byte[]> producer, String dlqTopic, int dlqPartition,
                                       String originalTopic, int originalPartition, long originalOffset) throws Exception {
            producer.send(DltRecord.failure(originalTopic, originalPartition, originalOffset, FAILING_GROUP).to(dlqTopic, dlqPartition))
                    .get(30, TimeUnit.SECONDS);
            return keyOf(originalTopic, originalPartition, originalOffset);
        }
    }

    private static FailureKey keyOf(String topic, int partition, long offset) {
        return new FailureKey(topic, partition, offset, FAILING_GROUP);
    }
}

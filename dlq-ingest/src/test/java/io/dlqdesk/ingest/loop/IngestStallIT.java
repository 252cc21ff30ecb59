package io.dlqdesk.ingest.loop;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.zaxxer.hikari.HikariDataSource;
import io.dlqdesk.ingest.classify.Classification;
import io.dlqdesk.ingest.classify.ClassifierSettings;
import io.dlqdesk.ingest.classify.DlqRecordClassifier;
import io.dlqdesk.ingest.config.IngestHealthIndicator;
import io.dlqdesk.testsupport.DltRecord;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.Status;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A record that cannot be written for a reason of its own must not stall ingest, on the real
 * database and broker. Records of the original topic {@code poison} are refused by a database trigger
 * (a non-transient SQL error); there are more of them than {@code max-in-flight}, spread over three
 * partitions, and healthy records arrive later on three others. And a stall that is not a database
 * outage (a table lock) turns readiness DOWN, and UP again once the writes complete.
 */
@RealInfrastructure
class IngestStallIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final Duration READINESS_BOUND = Duration.ofSeconds(3);
    private static final int MAX_IN_FLIGHT = 4;
    private static final int MAX_RECORD_ATTEMPTS = 3;
    private static final int PARTITIONS = 6;
    private static final List<Integer> POISONED = List.of(0, 1, 2);
    private static final List<Integer> HEALTHY = List.of(3, 4, 5);

    private static TestDatabase database;

    private HikariDataSource dataSource;
    private JdbcTemplate jdbc;
    private final MeterRegistry meters = new SimpleMeterRegistry();
    private DlqConsumerLoop loop;

    @BeforeAll
    static void schema(TestDatabase testDatabase) throws Exception {
        database = testDatabase;
        try (Connection connection = DriverManager.getConnection(database.jdbcUrl(), database.username(), database.password());
             Statement statement = connection.createStatement()) {
            // the quarantine table as every migration of the module makes it, in version order (V2nn: names sort as versions)
            java.nio.file.Path folder = java.nio.file.Path.of(IngestStallIT.class.getResource("/db/migration/ingest").toURI());
            List<java.nio.file.Path> migrations;
            try (var files = java.nio.file.Files.list(folder)) {
                migrations = files.filter(file -> file.getFileName().toString().matches("V\\d+__.*\\.sql")).sorted().toList();
            }
            for (java.nio.file.Path migration : migrations) {
                for (String sql : java.nio.file.Files.readString(migration).replaceAll("(?m)^--.*$", "").split(";")) {
                    if (!sql.isBlank()) {
                        statement.execute(sql);
                    }
                }
            }
            statement.execute("CREATE TABLE stall_ingested (dlq_topic VARCHAR(249) NOT NULL, dlq_partition INT NOT NULL,"
                    + " dlq_offset BIGINT NOT NULL, original_topic VARCHAR(249) NOT NULL,"
                    + " PRIMARY KEY (dlq_topic, dlq_partition, dlq_offset)) ENGINE = InnoDB");
            // the record's own reason: a non-transient error, the same on every try
            statement.execute("CREATE TRIGGER stall_refuses_poison BEFORE INSERT ON stall_ingested FOR EACH ROW"
                    + " IF NEW.original_topic = 'poison' THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'refused by trigger: poison'; END IF");
        }
    }

    @BeforeEach
    void connect() {
        dataSource = new HikariDataSource();
        dataSource.setJdbcUrl(database.jdbcUrl());
        dataSource.setUsername(database.username());
        dataSource.setPassword(database.password());
        dataSource.setMaximumPoolSize(6);
        jdbc = new JdbcTemplate(dataSource);
    }

    @AfterEach
    void stop() {
        if (loop != null) {
            loop.stop();
        }
        dataSource.close();
    }

    @Test
    void recordsThatCannotBeWrittenAreQuarantinedAfterTheirTriesAndEveryOtherPartitionFlows(KafkaBroker broker) throws Exception {
        String topic = topic(broker, "quarantine");
        send(broker, topic, POISONED, 0, 3, "poison"); // 9 > max-in-flight
        loop = startLoop(broker, topic, MalformedPolicy.QUARANTINE);
        await().atMost(WAIT).until(() -> counter("dlq.ingest.records", "outcome", "consumed") >= 9);
        send(broker, topic, HEALTHY, 0, 5, "orders");

        await().atMost(WAIT).untilAsserted(() -> {
            for (int partition : HEALTHY) {
                assertThat(ingested(topic, partition)).containsExactly(0L, 1L, 2L, 3L, 4L);
                assertThat(committed(broker, topic, partition)).isEqualTo(5L);
            }
            for (int partition : POISONED) {
                assertThat(committed(broker, topic, partition)).as("quarantined records are complete").isEqualTo(3L);
            }
        });
        List<Map<String, Object>> quarantined = jdbc.queryForList(
                "SELECT dlq_partition, dlq_offset, reason FROM dlq_quarantine WHERE dlq_topic = ? ORDER BY dlq_partition, dlq_offset", topic);
        assertThat(quarantined).hasSize(9);
        assertThat(quarantined).allSatisfy(row -> {
            assertThat((Integer) row.get("dlq_partition")).isIn(POISONED);
            assertThat((String) row.get("reason")).startsWith("Failure record not writable: write failed after " + MAX_RECORD_ATTEMPTS + " tries: ")
                    .contains("SQLException").contains("refused by trigger: poison");
        });
        for (int partition : POISONED) {
            assertThat(ingested(topic, partition)).isEmpty();
        }
        assertThat(counter("dlq.ingest.write.given_up", "then", "quarantine")).isEqualTo(9.0);
        assertThat(counter("dlq.ingest.records", "outcome", "quarantined")).isEqualTo(9.0);
        assertThat(counter("dlq.ingest.write.failures", "kind", "record")).isGreaterThanOrEqualTo(9.0 * MAX_RECORD_ATTEMPTS);
        assertThat(meters.get("dlq.ingest.batch_fallbacks").counter().count()).as("batches holding poison were written again one by one")
                .isPositive();
        await().atMost(WAIT).until(() -> loop.health().inFlight() == 0);
        assertThat(readiness().getStatus()).isEqualTo(Status.UP);
    }

    @Test
    void underPausePartitionOnlyThePartitionsOfRecordsThatCannotBeWrittenAreHeld(KafkaBroker broker) throws Exception {
        String topic = topic(broker, "pause");
        for (int offset = 0; offset < 4; offset++) { // per poisoned partition: healthy, poison, poison, healthy
            send(broker, topic, POISONED, offset, offset + 1, offset == 1 || offset == 2 ? "poison" : "orders");
        }
        loop = startLoop(broker, topic, MalformedPolicy.PAUSE_PARTITION);
        await().atMost(WAIT).until(() -> counter("dlq.ingest.records", "outcome", "consumed") >= 12);
        send(broker, topic, HEALTHY, 0, 5, "orders");

        await().atMost(WAIT).untilAsserted(() -> {
            for (int partition : HEALTHY) {
                assertThat(ingested(topic, partition)).containsExactly(0L, 1L, 2L, 3L, 4L);
                assertThat(committed(broker, topic, partition)).isEqualTo(5L);
            }
            for (int partition : POISONED) {
                assertThat(committed(broker, topic, partition)).as("held at its first poison record").isEqualTo(1L);
                assertThat(loop.health().blockedPartitions()).containsKey(topic + "-" + partition);
            }
            assertThat(loop.health().inFlight()).isZero();
        });
        assertThat(loop.health().blockedPartitions()).hasSize(POISONED.size());
        assertThat(loop.health().blockedPartitions().values()).allSatisfy(reason -> assertThat(reason)
                .startsWith("offset 1: write failed after " + MAX_RECORD_ATTEMPTS + " tries: ").contains("refused by trigger: poison"));
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM dlq_quarantine WHERE dlq_topic = ?", Integer.class, topic)).isZero();
        assertThat(counter("dlq.ingest.write.given_up", "then", "pause-partition")).isGreaterThanOrEqualTo(POISONED.size());
        // held partitions hold no slot: ingest is ready, and still polls well past the bound
        await().during(READINESS_BOUND.plusSeconds(1)).atMost(WAIT).until(() -> readiness().getStatus().equals(Status.UP));
        for (int partition : POISONED) {
            assertThat(committed(broker, topic, partition)).isEqualTo(1L);
        }
    }

    @Test
    void recordsWaitingWithNoneWrittenTurnReadinessDownThoughTheDatabaseAnswersAndUpOnceWritten(KafkaBroker broker) throws Exception {
        String topic = topic(broker, "stall");
        List<Integer> all = List.of(0, 1, 2, 3, 4, 5);
        send(broker, topic, all, 0, 2, "orders");
        loop = startLoop(broker, topic, MalformedPolicy.QUARANTINE);
        await().atMost(WAIT).untilAsserted(() -> assertThat(committedAll(broker, topic, all, 2L)).isTrue());
        assertThat(readiness().getStatus()).isEqualTo(Status.UP);

        try (Connection locker = DriverManager.getConnection(database.jdbcUrl(), database.username(), database.password());
             Statement lock = locker.createStatement()) {
            lock.execute("LOCK TABLES stall_ingested WRITE"); // writes wait: the database answers, nothing completes
            send(broker, topic, all, 2, 4, "orders");
            long stallSince = System.nanoTime();
            await().atMost(WAIT).until(() -> readiness().getStatus().equals(Status.DOWN));
            assertThat(Duration.ofNanos(System.nanoTime() - stallSince)).isLessThan(READINESS_BOUND.plusSeconds(20));
            Health down = readiness();
            assertThat(down.getDetails()).containsEntry("databaseUnreachable", false);
            assertThat((Integer) down.getDetails().get("inFlight")).isPositive();
            assertThat(Duration.between(loop.health().lastPoll(), Instant.now())).as("the loop still polls").isLessThan(READINESS_BOUND);
            assertThat(liveness().getStatus()).as("liveness asks only for polls").isEqualTo(Status.UP);
            assertThat(committedAll(broker, topic, all, 2L)).isTrue();
            lock.execute("UNLOCK TABLES");
        }

        await().atMost(WAIT).until(() -> readiness().getStatus().equals(Status.UP));
        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(committedAll(broker, topic, all, 4L)).isTrue();
            for (int partition : all) {
                assertThat(ingested(topic, partition)).containsExactly(0L, 1L, 2L, 3L);
            }
        });
        assertThat(counter("dlq.ingest.write.given_up", "then", "quarantine")).isZero();
    }

    /**
     * A storm larger than max-in-flight: once every partition is paused on work in flight, the loop takes the next
     * records as soon as a worker finishes, not when its poll timeout (here 30 s) runs out. The poll used to sleep it
     * out, which capped ingest at max-in-flight records per poll timeout.
     */
    @Test
    void aLoopPausedOnWorkInFlightTakesMoreAsSoonAsAWorkerFinishesNotAfterItsPollTimeout(KafkaBroker broker) throws Exception {
        String topic = topic(broker, "wake");
        send(broker, topic, HEALTHY, 0, 20, "orders"); // 60 records, 15 times max-in-flight
        loop = startLoop(broker, topic, MalformedPolicy.QUARANTINE, Duration.ofSeconds(30));
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            for (int partition : HEALTHY) {
                assertThat(ingested(topic, partition)).hasSize(20);
            }
        });
        assertThat(meters.get("dlq.ingest.batch_fallbacks").counter().count()).as("no batch failed").isZero();
        DistributionSummary batches = meters.get("dlq.ingest.batch_records").summary();
        assertThat(batches.count()).isPositive();
        assertThat(batches.totalAmount()).as("records written in batches, at most every record").isBetween(1.0, 60.0);
        assertThat(batches.max()).as("records per batch").isGreaterThanOrEqualTo(1.0);
    }

    private DlqConsumerLoop startLoop(KafkaBroker broker, String topic, MalformedPolicy policy) {
        return startLoop(broker, topic, policy, Duration.ofMillis(100));
    }

    private DlqConsumerLoop startLoop(KafkaBroker broker, String topic, MalformedPolicy policy, Duration pollTimeout) {
        Map<String, Object> config = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, group(topic),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG, MAX_IN_FLIGHT); // as the service caps it
        LoopSettings settings = new LoopSettings(Pattern.compile(Pattern.quote(topic)), policy, MAX_IN_FLIGHT, 100, 8,
                pollTimeout, Duration.ofSeconds(5), Duration.ofMillis(50), Duration.ofMillis(200), Duration.ofMillis(200),
                MAX_RECORD_ATTEMPTS, Duration.ZERO);
        LoopHealth health = new LoopHealth(Clock.systemUTC());
        DlqConsumerLoop started = new DlqConsumerLoop(
                () -> new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer()),
                new DlqRecordClassifier(ClassifierSettings.defaults())::classify, new TableWriter(), settings, Executors.newFixedThreadPool(2),
                health, new IngestMetrics(meters, health));
        started.start();
        return started;
    }

    /** Writes an incident as one row of {@code stall_ingested} (the trigger refuses poison), a quarantined record through the real store. */
    private final class TableWriter implements RecordHandler {

        private final QuarantineStore quarantine = new QuarantineStore(jdbc, new ObjectMapper(), Clock.systemUTC());
        private final TransactionTemplate transactions = new TransactionTemplate(new DataSourceTransactionManager(dataSource));

        @Override
        public void handle(ConsumerRecord<byte[], byte[]> record, Classification classification) {
            if (classification instanceof Classification.Malformed malformed) {
                quarantine.quarantine(record, malformed.reason());
                return;
            }
            String originalTopic = new String(record.headers().lastHeader("kafka_dlt-original-topic").value(), StandardCharsets.UTF_8);
            jdbc.update("INSERT INTO stall_ingested (dlq_topic, dlq_partition, dlq_offset, original_topic) VALUES (?, ?, ?, ?)"
                    + " ON DUPLICATE KEY UPDATE dlq_offset = dlq_offset", record.topic(), record.partition(), record.offset(), originalTopic);
        }

        @Override
        public void handleAll(List<Classified> records) {
            transactions.executeWithoutResult(status -> records.forEach(classified -> handle(classified.record(), classified.classification())));
        }
    }

    private Health readiness() {
        return IngestHealthIndicator.readiness(loop.health(), READINESS_BOUND, Clock.systemUTC()).health();
    }

    private Health liveness() {
        return IngestHealthIndicator.liveness(loop.health(), READINESS_BOUND, Clock.systemUTC()).health();
    }

    private double counter(String name, String tag, String value) {
        return meters.get(name).tag(tag, value).counter().count();
    }

    private List<Long> ingested(String topic, int partition) {
        return jdbc.queryForList("SELECT dlq_offset FROM stall_ingested WHERE dlq_topic = ? AND dlq_partition = ? ORDER BY dlq_offset",
                Long.class, topic, partition);
    }

    private static String topic(KafkaBroker broker, String name) throws Exception {
        String topic = "stall-" + name + "-" + System.nanoTime() + ".dlq";
        try (Admin admin = broker.admin()) {
            admin.createTopics(List.of(new NewTopic(topic, PARTITIONS, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        return topic;
    }

    /** Appends offsets {@code from}..{@code to}-1 to each partition, failures of records of {@code originalTopic}. */
    private static void send(KafkaBroker broker, String topic, List<Integer> partitions, long from, long to, String originalTopic) {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            for (long offset = from; offset < to; offset++) {
                for (int partition : partitions) {
                    producer.send(DltRecord.failure(originalTopic, partition, offset, "billing").to(topic, partition));
                }
            }
            producer.flush();
        }
    }

    private static boolean committedAll(KafkaBroker broker, String topic, List<Integer> partitions, long position) throws Exception {
        for (int partition : partitions) {
            if (!Long.valueOf(position).equals(committed(broker, topic, partition))) {
                return false;
            }
        }
        return true;
    }

    private static Long committed(KafkaBroker broker, String topic, int partition) throws Exception {
        return broker.committedOffset(group(topic), new TopicPartition(topic, partition));
    }

    private static String group(String topic) {
        return "group-" + topic;
    }
}

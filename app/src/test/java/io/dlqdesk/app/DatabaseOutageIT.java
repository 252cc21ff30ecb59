package io.dlqdesk.app;

import io.dlqdesk.domain.api.FailureKey;
import io.dlqdesk.domain.api.IncidentId;
import io.dlqdesk.testsupport.DatabaseServer;
import io.dlqdesk.testsupport.DltRecord;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The database goes away mid-stream: nothing is committed past unpersisted work, and nothing is lost or doubled. */
@RealInfrastructure
class DatabaseOutageIT {

    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final String GROUP = "billing";

    @Test
    void whileTheDatabaseIsDownNothingIsCommittedPastUnpersistedWorkAndAfterItEveryRecordIsOneIncident(
            TestDatabase database, DatabaseServer server, KafkaBroker broker) throws Exception {
        Assumptions.assumeTrue(server.restartable(), () -> server.description() + " cannot be stopped by tests");
        String nonce = "db" + System.nanoTime();
        String dlqTopic = "it-" + nonce + "-orders.dlq";
        String original = "orders-" + nonce;
        try (Admin admin = admin(broker)) {
            admin.createTopics(List.of(new NewTopic(dlqTopic, 2, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        Map<String, Object> config = Map.of(
                "dlqdesk.ingest.topic-pattern", "it-" + nonce + "-.*\\.dlq",
                "dlqdesk.ingest.group-id", "ingest-" + nonce,
                "dlqdesk.ingest.retry-max-backoff", "2s",
                "dlqdesk.events-topic", "it-" + nonce + "-incident-events",
                "spring.datasource.hikari.connection-timeout", "2000");
        List<FailureKey> keys = new ArrayList<>();

        try (ConfigurableApplicationContext app = RunningApp.start(database, broker, config)) {
            JdbcTemplate jdbc = app.getBean(JdbcTemplate.class);
            keys.addAll(send(broker, dlqTopic, original, 0, 5));
            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(incidentsOpened(jdbc, keys)).containsOnly(1);
                assertThat(committed(broker, nonce, dlqTopic, 0)).isEqualTo(5L);
                assertThat(committed(broker, nonce, dlqTopic, 1)).isEqualTo(5L);
            });

            server.stop();
            try {
                keys.addAll(send(broker, dlqTopic, original, 5, 10));
                // received, not persisted: the committed positions must stay where the persisted work ends
                await().during(Duration.ofSeconds(8)).atMost(Duration.ofSeconds(20)).until(() ->
                        Long.valueOf(5).equals(committed(broker, nonce, dlqTopic, 0)) && Long.valueOf(5).equals(committed(broker, nonce, dlqTopic, 1)));
            } finally {
                server.start();
            }

            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(incidentsOpened(jdbc, keys)).hasSize(30).containsOnly(1);
                assertThat(committed(broker, nonce, dlqTopic, 0)).isEqualTo(15L);
                assertThat(committed(broker, nonce, dlqTopic, 1)).isEqualTo(15L);
            });
        }
    }

    /** Records for original offsets [from, from + count) on each of the two DLQ partitions. */
    private static List<FailureKey> send(KafkaBroker broker, String dlqTopic, String original, int from, int count) throws Exception {
        List<FailureKey> keys = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int partition = 0; partition < 2; partition++) {
                for (long offset = from; offset < from + count; offset++) {
                    producer.send(DltRecord.failure(original, partition, offset, GROUP).to(dlqTopic, partition)).get(30, TimeUnit.SECONDS);
                    keys.add(new FailureKey(original, partition, offset, GROUP));
                }
            }
        }
        return keys;
    }

    private static List<Integer> incidentsOpened(JdbcTemplate jdbc, List<FailureKey> keys) {
        return keys.stream().map(key -> jdbc.queryForObject(
                "SELECT COUNT(*) FROM domain_event_entry WHERE aggregate_identifier = ? AND payload_type LIKE '%.IncidentOpened'",
                Integer.class, IncidentId.of(key).value())).toList();
    }

    private static Long committed(KafkaBroker broker, String nonce, String topic, int partition) throws Exception {
        try (Admin admin = admin(broker)) {
            OffsetAndMetadata offset = admin.listConsumerGroupOffsets("ingest-" + nonce).partitionsToOffsetAndMetadata()
                    .get(10, TimeUnit.SECONDS).get(new TopicPartition(topic, partition));
            return offset == null ? null : offset.offset();
        }
    }

    private static Admin admin(KafkaBroker broker) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()));
    }
}

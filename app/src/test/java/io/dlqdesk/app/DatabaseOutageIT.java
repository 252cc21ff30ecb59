package io.dlqdesk.app;

import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.testsupport.DatabaseServer;
import io.dlqdesk.testsupport.DltRecord;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.jdbc.core.JdbcTemplate;

import java.net.http.HttpResponse;
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
        String group = "ingest-" + nonce;
        IngestLedger.createTopic(broker, dlqTopic, 2, Map.of());
        Map<String, Object> config = Map.of(
                "dlqdesk.ingest.topic-pattern", "it-" + nonce + "-.*\\.dlq",
                "dlqdesk.ingest.group-id", group,
                "dlqdesk.ingest.retry-max-backoff", "2s",
                "dlqdesk.events-topic", "it-" + nonce + "-incident-events",
                "dlqdesk.ingest.readiness-timeout", "3s",
                "spring.datasource.hikari.connection-timeout", "2000");
        List<FailureKey> keys = new ArrayList<>();

        try (ConfigurableApplicationContext app = RunningApp.start(database, broker, config)) {
            JdbcTemplate jdbc = app.getBean(JdbcTemplate.class);
            keys.addAll(send(broker, dlqTopic, original, 0, 5));
            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(IngestLedger.incidentsOpened(jdbc, keys)).containsOnly(1);
                assertThat(broker.committedOffset(group, new TopicPartition(dlqTopic, 0))).isEqualTo(5L);
                assertThat(broker.committedOffset(group, new TopicPartition(dlqTopic, 1))).isEqualTo(5L);
            });

            server.stop();
            try {
                keys.addAll(send(broker, dlqTopic, original, 5, 10));
                // received, not persisted: the committed positions must stay where the persisted work ends
                await().during(Duration.ofSeconds(8)).atMost(Duration.ofSeconds(20)).until(() ->
                        Long.valueOf(5).equals(broker.committedOffset(group, new TopicPartition(dlqTopic, 0))) && Long.valueOf(5).equals(broker.committedOffset(group, new TopicPartition(dlqTopic, 1))));
                // records in flight cannot be written: not ready; and the API says the database is away, not a 500
                await().atMost(Duration.ofSeconds(20)).until(() -> RunningApp.get(app, "/actuator/health/readiness").statusCode() == 503);
                HttpResponse<String> list = RunningApp.get(app, "/api/v1/incidents", "viewer", RunningApp.PASSWORD);
                assertThat(list.statusCode()).as(list.body()).isEqualTo(503);
                assertThat(list.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
                assertThat(list.body()).contains("urn:dlqdesk:problem:database-unavailable");
            } finally {
                server.start();
            }

            // the service's pool may still time out a connection right after the restart
            await().atMost(WAIT).ignoreExceptionsInstanceOf(CannotGetJdbcConnectionException.class).untilAsserted(() -> {
                assertThat(IngestLedger.incidentsOpened(jdbc, keys)).hasSize(30).containsOnly(1);
                assertThat(broker.committedOffset(group, new TopicPartition(dlqTopic, 0))).isEqualTo(15L);
                assertThat(broker.committedOffset(group, new TopicPartition(dlqTopic, 1))).isEqualTo(15L);
            });
            await().atMost(WAIT).until(() -> RunningApp.get(app, "/actuator/health/readiness").statusCode() == 200);
            assertThat(RunningApp.get(app, "/api/v1/incidents", "viewer", RunningApp.PASSWORD).statusCode()).isEqualTo(200);
        }
    }

    /** Records for original offsets [from, from + count) on each of the two DLQ partitions. */
    private static List<FailureKey> send(KafkaBroker broker, String dlqTopic, String original, int from, int count) throws Exception {
        List<FailureKey> keys = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer = IngestLedger.producer(broker, Map.of())) {
            for (int partition = 0; partition < 2; partition++) {
                for (long offset = from; offset < from + count; offset++) {
                    producer.send(DltRecord.failure(original, partition, offset, GROUP).to(dlqTopic, partition)).get(30, TimeUnit.SECONDS);
                    keys.add(new FailureKey(original, partition, offset, GROUP));
                }
            }
        }
        return keys;
    }



}

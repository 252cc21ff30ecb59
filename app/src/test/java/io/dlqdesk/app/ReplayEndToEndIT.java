package io.dlqdesk.app;

import io.dlqdesk.consumer.Decision;
import io.dlqdesk.consumer.ReplayKeys;
import io.dlqdesk.consumer.TargetGroupFilter;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.domain.replay.ReplayHeaders;
import io.dlqdesk.projections.readiness.RollbackFacts;
import io.dlqdesk.projections.readiness.RollbackFactsQuery;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.axonframework.queryhandling.QueryGateway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Replay from end to end on the real broker and database: a Spring Kafka listener fails, its
 * DeadLetterPublishingRecoverer writes the DLQ, the desk opens an incident; an operator replays it;
 * the listener fails again and the re-failure lands on the same incident; then, fixed, the service
 * processes the record once however often it was published.
 */
@RealInfrastructure
class ReplayEndToEndIT {

    private static final String NONCE = "e" + System.nanoTime();
    private static final String ORDERS = Replays.ordersTopic(NONCE);
    private static final String GROUP = "orders-service";
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String SIGNING_SECRET = "an-example-secret-of-at-least-32-bytes";

    private static KafkaBroker broker;
    private static ConfigurableApplicationContext app;
    private static OrdersService orders;
    private static KafkaProducer<byte[], byte[]> producer;

    @BeforeAll
    static void start(TestDatabase database, KafkaBroker kafka) throws Exception {
        broker = kafka;
        IngestLedger.createTopic(broker, ORDERS, 3, Map.of());
        IngestLedger.createTopic(broker, ORDERS + ".dlq", 3, Map.of());
        app = Replays.service(database, broker, NONCE, Map.of(
                "dlqdesk.replay.poll-interval", "200ms",
                // two failed tries end an attempt PUBLISH_FAILED: a mark that fails after the ack must never count as one
                "dlqdesk.replay.max-tries", "2",
                // and a mark that cannot be written within this is left for the next round, which sends again
                "dlqdesk.replay.mark-sent-retry-for", "500ms",
                // the key the consumers of the topic hold too (dlq-desk-consumer)
                "dlqdesk.replay.signing.active-key-id", "k1",
                "dlqdesk.replay.signing.keys.k1", SIGNING_SECRET));
        orders = new OrdersService(broker, ORDERS, GROUP);
        orders.start();
        producer = IngestLedger.producer(broker, Map.of());
    }

    @AfterAll
    static void stop() {
        orders.close();
        producer.close();
        app.close();
    }

    @Test
    void aFailedRecordIsReplayedByteIdenticallyReFailsIntoTheSameIncidentAndIsProcessedOnceWhenFixed() throws Exception {
        String eventId = "evt-" + NONCE + "-1";
        byte[] key = "order-1".getBytes(StandardCharsets.UTF_8);
        byte[] value = {(byte) 0xC3, 0x28, (byte) 0xFF, 0x00, (byte) 0xFE, 0x7F, (byte) 0x80, (byte) 0xA0}; // not UTF-8
        long timestamp = Instant.now().minusSeconds(120).toEpochMilli();
        orders.failing.add(eventId);
        var original = Replays.record(ORDERS, 1, timestamp, key, value, eventId);
        original.headers().add("tenant", "acme".getBytes(StandardCharsets.UTF_8));
        original.headers().add("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01".getBytes(StandardCharsets.UTF_8));
        RecordMetadata sent = producer.send(original).get(30, TimeUnit.SECONDS);
        String id = IncidentId.of(new FailureKey(ORDERS, 1, sent.offset(), GROUP)).value();
        await().atMost(WAIT).until(() -> Replays.incidentsOf(app, ORDERS).contains(id));

        orders.stop(); // the replay stays unconsumed until the incident is closed
        assertThat(RunningApp.post(app, "/api/v1/incidents/" + id + "/acknowledge", "operator", "{\"reason\":\"mine\"}").statusCode())
                .isEqualTo(204);
        HttpResponse<String> accepted = Replays.requestReplay(app, id);
        assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);
        assertThat(accepted.body()).contains("\"attempt\":1");

        TopicPartition partition = new TopicPartition(ORDERS, 1);
        await().atMost(WAIT).until(() -> !Replays.replaysOn(broker, partition, sent.offset() + 1, id).isEmpty());
        ConsumerRecord<byte[], byte[]> replay = Replays.replaysOn(broker, partition, sent.offset() + 1, id).get(0);
        assertThat(replay.key()).isEqualTo(key);
        assertThat(replay.value()).isEqualTo(value);
        assertThat(replay.timestamp()).isEqualTo(timestamp);
        assertThat(Replays.header(replay, "eventId")).isEqualTo(eventId);
        assertThat(Replays.header(replay, "tenant")).isEqualTo("acme");
        assertThat(replay.headers().lastHeader("traceparent")).as("tracing headers are on the deny-list").isNull();
        assertThat(Replays.header(replay, ReplayHeaders.ATTEMPT)).isEqualTo("1");
        assertThat(Replays.header(replay, ReplayHeaders.OWNER)).isEqualTo("dlq-incident-desk");
        assertThat(Replays.header(replay, ReplayHeaders.TARGET_GROUP)).isEqualTo(GROUP);
        assertThat(replay.headers().toArray()).noneMatch(header -> header.key().startsWith("kafka_dlt-"));
        assertThat(TargetGroupFilter.forGroup("shipping", ReplayKeys.of("k1", SIGNING_SECRET)).decide(replay))
                .as("signed: a library consumer of another group skips it").isEqualTo(Decision.SKIP_OTHER_GROUP);
        await().atMost(WAIT).until(() -> Replays.events(app, id, "PublishResultRecorded") == 1);
        assertThat(Replays.lastPayload(app, id, "PublishResultRecorded"))
                .contains("\"status\":\"PUBLISHED\"", "\"partition\":1", "\"offset\":" + replay.offset());
        await().atMost(WAIT).untilAsserted(() -> assertThat(app.getBean(QueryGateway.class)
                .query(new RollbackFactsQuery(), RollbackFacts.class).join().published())
                .as("rollback facts: where replays for the group were published")
                .anySatisfy(position -> {
                    assertThat(position.targetGroup()).isEqualTo(GROUP);
                    assertThat(position.topic()).isEqualTo(ORDERS);
                    assertThat(position.partition()).isEqualTo(1);
                    assertThat(position.highestOffset()).isGreaterThanOrEqualTo(replay.offset());
                }));

        assertThat(RunningApp.post(app, "/api/v1/incidents/" + id + "/resolve", "operator", "{\"reason\":\"replayed\"}").statusCode())
                .isEqualTo(204);
        await().atMost(WAIT).until(() -> "RESOLVED".equals(Replays.statusOf(app, id)));
        orders.start(); // still failing: the replay goes to the DLQ again, carrying the correlation headers
        await().atMost(WAIT).until(() -> Replays.events(app, id, "RetryFailureCorrelated") == 1);
        assertThat(Replays.events(app, id, "IncidentReopened")).isEqualTo(1);
        await().atMost(WAIT).untilAsserted(() -> assertThat(app.getBean(MeterRegistry.class).find("dlq.incidents.reopened").counter())
                .as("a reopen is a metric to alert on").isNotNull()
                .satisfies(counter -> assertThat(counter.count()).isGreaterThanOrEqualTo(1)));
        await().atMost(WAIT).until(() -> "OPEN".equals(Replays.statusOf(app, id)));
        String ownIdOfTheReFailure = IncidentId.of(new FailureKey(ORDERS, 1, replay.offset(), GROUP)).value();
        assertThat(Replays.events(app, ownIdOfTheReFailure, "IncidentOpened")).as("the re-failure opened no incident of its own").isZero();
        assertThat(Replays.incidentsOf(app, ORDERS)).contains(id).doesNotContain(ownIdOfTheReFailure);
        assertThat(Replays.events(app, id, "IncidentOpened")).as("open count of the incident").isEqualTo(1);

        orders.failing.remove(eventId); // fixed
        assertThat(RunningApp.post(app, "/api/v1/incidents/" + id + "/acknowledge", "operator", "{\"reason\":\"again\"}").statusCode())
                .isEqualTo(204);
        HttpResponse<String> second = Replays.requestReplay(app, id);
        assertThat(second.statusCode()).as(second.body()).isEqualTo(202);
        assertThat(second.body()).contains("\"attempt\":2");
        await().atMost(WAIT).until(() -> orders.effectsOf(eventId) == 1);
        assertThat(orders.deliveriesOf(eventId)).isGreaterThanOrEqualTo(3); // the original, replay 1, replay 2
    }

    /**
     * The broker acknowledged, then the database update failed for longer than the poller keeps trying to write it (as
     * in a crash): the row is sent again, none of those rounds is a failed try, and the attempt ends PUBLISHED.
     */
    @Test
    void aCrashBetweenTheBrokersAckAndTheDatabaseUpdatePublishesAgainAndTheRecordIsProcessedOnce() throws Exception {
        String eventId = "evt-" + NONCE + "-crash";
        RecordMetadata sent = failOnce(2, eventId);
        String id = IncidentId.of(new FailureKey(ORDERS, 2, sent.offset(), GROUP)).value();

        JdbcTemplate jdbc = app.getBean(JdbcTemplate.class);
        // the update that marks the row SENT fails for its first 3 seconds (counted from the row's creation, so
        // however late the saga writes it): every send in that time is acknowledged and then rolled back
        jdbc.execute("CREATE TABLE IF NOT EXISTS it_crash_incident (incident_id VARCHAR(36) NOT NULL)");
        jdbc.execute("DROP TRIGGER IF EXISTS it_crash_after_ack");
        jdbc.execute("CREATE TRIGGER it_crash_after_ack BEFORE UPDATE ON replay_outbox FOR EACH ROW BEGIN "
                + "IF NEW.status = 'SENT' AND UTC_TIMESTAMP(6) < TIMESTAMPADD(SECOND, 3, OLD.created_at) "
                + "AND EXISTS (SELECT 1 FROM it_crash_incident c WHERE c.incident_id = NEW.incident_id) "
                + "THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'crash after the ack'; END IF; END");
        jdbc.update("INSERT INTO it_crash_incident VALUES (?)", id);

        assertThat(Replays.requestReplay(app, id).statusCode()).isEqualTo(202);
        await().atMost(WAIT).until(() -> Replays.events(app, id, "PublishResultRecorded") == 1);
        assertThat(Replays.lastPayload(app, id, "PublishResultRecorded")).contains("\"status\":\"PUBLISHED\"");
        assertThat(jdbc.queryForObject("SELECT tries FROM replay_outbox WHERE incident_id = ?", Integer.class, id))
                .as("only the SENT mark counts: a failed mark after the ack is no failed try").isEqualTo(1);
        TopicPartition partition = new TopicPartition(ORDERS, 2);
        List<ConsumerRecord<byte[], byte[]>> published = Replays.replaysOn(broker, partition, sent.offset() + 1, id);
        assertThat(published).as("published at least twice").hasSizeGreaterThanOrEqualTo(2)
                .allSatisfy(record -> assertThat(Replays.header(record, ReplayHeaders.ATTEMPT)).isEqualTo("1"));
        await().atMost(WAIT).until(() -> orders.deliveriesOf(eventId) >= 1 + published.size());
        assertThat(orders.effectsOf(eventId)).as("processed once").isEqualTo(1);
    }

    @Test
    void tenConcurrentReplayRequestsOnOneIncidentAcceptExactlyOne() throws Exception {
        RecordMetadata sent = failOnce(0, "evt-" + NONCE + "-ten");
        String id = IncidentId.of(new FailureKey(ORDERS, 0, sent.offset(), GROUP)).value();

        ExecutorService pool = Executors.newFixedThreadPool(10);
        try {
            List<Callable<HttpResponse<String>>> requests = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                requests.add(() -> Replays.requestReplay(app, id));
            }
            List<HttpResponse<String>> responses = new ArrayList<>();
            for (Future<HttpResponse<String>> response : pool.invokeAll(requests, 2, TimeUnit.MINUTES)) {
                responses.add(response.get());
            }
            assertThat(responses).filteredOn(response -> response.statusCode() == 202).hasSize(1);
            assertThat(responses).filteredOn(response -> response.statusCode() != 202)
                    .hasSize(9)
                    // refused for the state each found: the winner still in flight, or (a slow caller) already published
                    .allSatisfy(response -> assertThat(response.body()).containsAnyOf("\"REPLAY_ALREADY_REQUESTED\"", "\"ALREADY_PUBLISHED\""));
        } finally {
            pool.shutdownNow();
        }
        assertThat(Replays.events(app, id, "ReplayRequested")).isEqualTo(1);
    }

    /** A record the service fails on once: it reaches the DLQ and its incident is listed; the service then processes it. */
    private static RecordMetadata failOnce(int partition, String eventId) throws Exception {
        orders.failing.add(eventId);
        RecordMetadata sent = producer.send(Replays.record(ORDERS, partition, Instant.now().toEpochMilli(),
                ("order-" + eventId).getBytes(StandardCharsets.UTF_8), "{\"order\":1}".getBytes(StandardCharsets.UTF_8), eventId))
                .get(30, TimeUnit.SECONDS);
        String id = IncidentId.of(new FailureKey(ORDERS, partition, sent.offset(), GROUP)).value();
        await().atMost(WAIT).until(() -> Replays.incidentsOf(app, ORDERS).contains(id));
        orders.failing.remove(eventId);
        return sent;
    }
}

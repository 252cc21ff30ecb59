package io.dlqdesk.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.domain.record.RecordLocation;
import io.dlqdesk.domain.replay.ReplayHeaders;
import io.dlqdesk.testsupport.DltRecord;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Every DLQ record the service consumes ends as exactly one outcome (ARCHITECTURE §12): a failure of
 * an incident, a duplicate delivery counted on one, a separate incident that says why, a quarantine
 * row, or "not ours" (counted). Forged re-failures that reuse a replayed incident's location never
 * join, reopen or vanish into it.
 */
@RealInfrastructure
class NothingDroppedIT {

    private static final String NONCE = "n" + System.nanoTime();
    private static final String ORDERS = "it-" + NONCE + "-orders";
    private static final String DLQ = ORDERS + ".dlq";
    private static final String MIXED = "it-" + NONCE + "-mixed";
    private static final String MIXED_DLQ = MIXED + ".dlq";
    private static final String GROUP = "billing";
    private static final String INGEST_GROUP = "ingest-" + NONCE;
    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final ObjectMapper JSON = new ObjectMapper();

    private static KafkaBroker broker;
    private static ConfigurableApplicationContext app;
    private static KafkaProducer<byte[], byte[]> producer;

    @BeforeAll
    static void start(TestDatabase database, KafkaBroker kafka) throws Exception {
        broker = kafka;
        IngestLedger.createTopic(broker, ORDERS, 1, Map.of());
        IngestLedger.createTopic(broker, DLQ, 1, Map.of());
        IngestLedger.createTopic(broker, MIXED_DLQ, 3, Map.of());
        app = RunningApp.start(database, broker, Map.of(
                "dlqdesk.ingest.topic-pattern", "it-" + NONCE + "-.*\\.dlq",
                "dlqdesk.ingest.group-id", INGEST_GROUP,
                "dlqdesk.ingest.owned-groups", GROUP,
                "dlqdesk.events-topic", "it-" + NONCE + "-incident-events",
                "dlqdesk.replay.allowed-topics", "it-.*",
                "dlqdesk.replay.poll-interval", "200ms"));
        producer = IngestLedger.producer(broker, Map.of());
    }

    @AfterAll
    static void stop() {
        producer.close();
        app.close();
    }

    @Test
    void forgedReFailuresAtAReplayedIncidentsLocationAreEachKeptWithTheCheckTheyFailAndTheRootIsUntouched() throws Exception {
        Instant originalTime = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        byte[] key = "order-7".getBytes(StandardCharsets.UTF_8);
        byte[] value = "{\"order\":7}".getBytes(StandardCharsets.UTF_8);
        RecordMetadata source = producer.send(Replays.record(ORDERS, 0, originalTime.toEpochMilli(), key, value, "evt-7"))
                .get(30, TimeUnit.SECONDS);
        String root = Replays.sendFailure(producer, source, GROUP, key, value, "evt-7", originalTime, DLQ);
        await().atMost(WAIT).until(() -> "OPEN".equals(Replays.statusOf(app, root)));

        Replays.setSwitch(app, true);
        HttpResponse<String> replay = Replays.requestReplay(app, root);
        assertThat(replay.statusCode()).as(replay.body()).isEqualTo(202);
        await().atMost(WAIT).until(() -> "PUBLISHED".equals(detail(root).path("incident").path("lastPublishStatus").asText()));
        Replays.setSwitch(app, false);
        ConsumerRecord<byte[], byte[]> replayed = Replays.replaysOn(broker, new TopicPartition(ORDERS, 0), source.offset() + 1, root).get(0);
        for (String action : List.of("acknowledge", "resolve")) {
            HttpResponse<String> response = RunningApp.post(app, "/api/v1/incidents/" + root + "/" + action, "operator",
                    "{\"reason\":\"consumer fixed\"}");
            assertThat(response.statusCode()).as(response.body()).isEqualTo(204);
        }

        // each differs from the genuine re-failure of `replayed` in one check alone, and reuses the root's location
        Map<String, UnaryOperator<DltRecord>> forgeries = new LinkedHashMap<>();
        forgeries.put("ATTEMPT_MISMATCH", record -> replace(record, ReplayHeaders.ATTEMPT, "2"));
        forgeries.put("OWNER_MISMATCH", record -> replace(record, ReplayHeaders.OWNER, "another-desk"));
        forgeries.put("TARGET_GROUP_MISMATCH", record -> replace(record, ReplayHeaders.TARGET_GROUP, "shipping"));
        forgeries.put("ROOT_INCIDENT_MISMATCH", record -> replace(record, ReplayHeaders.ROOT_INCIDENT_ID,
                IncidentId.of(new FailureKey(ORDERS, 0, 999_999, GROUP)).value()));
        forgeries.put("EVENT_ID_MISMATCH", record -> replace(record, "eventId", "evt-forged"));
        forgeries.put("KEY_MISMATCH", record -> record.key("order-8".getBytes(StandardCharsets.UTF_8)));
        forgeries.put("ORIGINAL_TIMESTAMP_MISMATCH", record -> replace(record, "kafka_dlt-original-timestamp",
                long8(originalTime.toEpochMilli() + 1)));
        forgeries.put("VALUE_HASH_MISMATCH", record -> record.value("{\"order\":8}".getBytes(StandardCharsets.UTF_8)));
        Map<String, Long> forgedAt = new LinkedHashMap<>();
        for (var forgery : forgeries.entrySet()) {
            forgedAt.put(forgery.getKey(), sendTo(DLQ, 0, forgery.getValue().apply(reFailureOf(replayed, source.offset()))));
        }
        // the topic check: the same offset and partition of another topic
        long otherTopicAt = sendTo(DLQ, 0, replace(reFailureOf(replayed, source.offset()), "kafka_dlt-original-topic", ORDERS + "-other"));
        long garbledRootAt = sendTo(DLQ, 0, replace(reFailureOf(replayed, source.offset()), ReplayHeaders.ROOT_INCIDENT_ID, "inc-garbled"));
        // the genuine re-failure's content at the root's own location: passes the nine checks, but the root's failure is taken
        long rootLocationAt = sendTo(DLQ, 0, reFailureOf(replayed, source.offset()));
        long exactDuplicateAt = sendTo(DLQ, 0, DltRecord.failure(ORDERS, 0, source.offset(), GROUP).key(key).value(value)
                .without("eventId").header("eventId", "evt-7")
                .without("kafka_dlt-original-timestamp").header("kafka_dlt-original-timestamp", long8(originalTime.toEpochMilli())));
        awaitAllIngested(new TopicPartition(DLQ, 0));

        // every outcome is in the event store now; the read models follow within seconds
        await().atMost(WAIT).untilAsserted(() -> {
            for (var forged : forgedAt.entrySet()) {
                JsonNode incident = detail(IncidentId.ofDlqRecord(new RecordLocation(DLQ, 0, forged.getValue())).value()).path("incident");
                assertThat(mismatches(incident)).as(forged.getKey()).contains(forged.getKey(), "FAILURE_KEY_TAKEN");
                assertThat(incident.path("status").asText()).isEqualTo("OPEN");
            }
            JsonNode otherTopic = detail(IncidentId.of(new FailureKey(ORDERS + "-other", 0, source.offset(), GROUP)).value()).path("incident");
            assertThat(mismatches(otherTopic)).containsExactly("TOPIC_MISMATCH");
            JsonNode garbled = detail(IncidentId.ofDlqRecord(new RecordLocation(DLQ, 0, garbledRootAt)).value()).path("incident");
            assertThat(mismatches(garbled)).containsExactly("ROOT_INCIDENT_MISMATCH", "FAILURE_KEY_TAKEN");
            JsonNode atRootLocation = detail(IncidentId.ofDlqRecord(new RecordLocation(DLQ, 0, rootLocationAt)).value()).path("incident");
            assertThat(mismatches(atRootLocation)).containsExactly("FAILURE_KEY_TAKEN");

            JsonNode rootNow = detail(root);
            assertThat(rootNow.path("incident").path("status").asText()).as("no forgery reopens the root").isEqualTo("RESOLVED");
            assertThat(rootNow.path("incident").path("failureCount").asInt()).as("no forgery joins the root").isEqualTo(1);
            assertThat(rootNow.path("incident").path("duplicateDeliveries").asInt()).as("the exact duplicate is counted").isEqualTo(1);
            assertThat(rootNow.path("incident").path("lastDuplicateAt").isNull()).isFalse();
            assertThat(RunningApp.get(app, "/api/v1/incidents/" + root + "/history", "viewer", RunningApp.PASSWORD).body())
                    .contains("DuplicateDeliveryRecorded", DLQ + "/0@" + exactDuplicateAt);
        });
        assertThat(Replays.events(app, root, "RetryFailureCorrelated")).isZero();
        assertThat(Replays.events(app, root, "IncidentReopened")).isZero();

        // the allowed side: the genuine re-failure joins the root and reopens it
        long genuineAt = sendTo(DLQ, 0, reFailureOf(replayed, replayed.offset()));
        awaitAllIngested(new TopicPartition(DLQ, 0));
        await().atMost(WAIT).untilAsserted(() -> {
            JsonNode reopened = detail(root).path("incident");
            assertThat(reopened.path("status").asText()).isEqualTo("OPEN");
            assertThat(reopened.path("failureCount").asInt()).isEqualTo(2);
            assertThat(RunningApp.get(app, "/api/v1/incidents/" + root + "/history", "viewer", RunningApp.PASSWORD).body())
                    .contains(DLQ + "/0@" + genuineAt);
        });
        // and read again from another DLQ record it is a counted duplicate, not a second failure
        sendTo(DLQ, 0, reFailureOf(replayed, replayed.offset()));
        awaitAllIngested(new TopicPartition(DLQ, 0));
        await().atMost(WAIT).untilAsserted(() -> assertThat(detail(root).path("incident").path("duplicateDeliveries").asInt()).isEqualTo(2));
        assertThat(detail(root).path("incident").path("failureCount").asInt()).isEqualTo(2);
    }

    @Test
    void aMixedBatchMapsEveryDlqOffsetToExactlyOneOutcome() throws Exception {
        Map<RecordLocation, String> expected = new HashMap<>();
        List<FailureKey> good = new ArrayList<>();
        // wave 1: first failures, records without a group or with a corrupt timestamp, without a location, other deployments'
        for (int i = 0; i < 150; i++) {
            FailureKey failureKey = new FailureKey(MIXED, i % 3, i, GROUP);
            good.add(failureKey);
            expected.put(send(i % 3, DltRecord.failure(MIXED, i % 3, i, GROUP)), "opened");
        }
        for (int i = 0; i < 40; i++) {
            DltRecord record = i % 2 == 0
                    ? DltRecord.failure(MIXED, 0, 10_000 + i, GROUP).without("kafka_dlt-original-consumer-group")
                    : DltRecord.failure(MIXED, 0, 10_000 + i, GROUP).without("kafka_dlt-original-timestamp")
                            .header("kafka_dlt-original-timestamp", new byte[] {1, 2, 3});
            expected.put(send(i % 3, record), "quarantined");
        }
        for (int i = 0; i < 20; i++) {
            expected.put(send(i % 3, DltRecord.failure(MIXED, 0, 20_000 + i, GROUP).without("kafka_dlt-original-offset")), "location unknown");
        }
        for (int i = 0; i < 30; i++) {
            expected.put(send(i % 3, DltRecord.failure(MIXED, 0, 30_000 + i, "marketing")), "not ours");
        }
        awaitAllIngested(partitions());
        // wave 2, once every incident of wave 1 exists: exact redeliveries, other content under a taken key, garbled roots
        for (int i = 0; i < 40; i++) {
            FailureKey failureKey = good.get(i);
            expected.put(send((i + 1) % 3, DltRecord.failure(MIXED, failureKey.partition(), failureKey.offset(), GROUP)), "duplicate");
        }
        for (int i = 40; i < 70; i++) {
            FailureKey failureKey = good.get(i);
            expected.put(send(i % 3, DltRecord.failure(MIXED, failureKey.partition(), failureKey.offset(), GROUP)
                    .without("eventId").header("eventId", "evt-other-" + i)), "key taken");
        }
        for (int i = 70; i < 90; i++) {
            FailureKey failureKey = good.get(i);
            expected.put(send(i % 3, DltRecord.failure(MIXED, failureKey.partition(), failureKey.offset(), GROUP)
                    .header(ReplayHeaders.ROOT_INCIDENT_ID, "not-an-id").header(ReplayHeaders.ATTEMPT, "1")), "key taken");
        }
        awaitAllIngested(partitions());

        Map<RecordLocation, List<String>> outcomes = outcomesOn(app.getBean(JdbcTemplate.class), MIXED_DLQ);
        long notOurs = expected.values().stream().filter("not ours"::equals).count();
        assertThat(outcomes.keySet()).as("every record but another deployment's left a trace")
                .hasSize(expected.size() - (int) notOurs);
        expected.forEach((location, kind) -> {
            List<String> found = outcomes.getOrDefault(location, List.of());
            if (kind.equals("not ours")) {
                assertThat(found).as(location + " " + kind).isEmpty();
            } else {
                assertThat(found).as(location + " " + kind).containsExactly(kind);
            }
        });
        MeterRegistry meters = app.getBean(MeterRegistry.class);
        assertThat(meters.get("dlq.ingest.records").tag("outcome", "ignored").counter().count()).isGreaterThanOrEqualTo(notOurs);
        // and through the API: a duplicate is counted on the incident it repeats
        await().atMost(WAIT).untilAsserted(() ->
                assertThat(detail(IncidentId.of(good.get(0)).value()).path("incident").path("duplicateDeliveries").asInt()).isEqualTo(1));
    }

    /** Every trace a DLQ record of {@code dlqTopic} left, by its location: incidents and their events, and quarantine rows. */
    private static Map<RecordLocation, List<String>> outcomesOn(JdbcTemplate jdbc, String dlqTopic) {
        Map<RecordLocation, List<String>> outcomes = new HashMap<>();
        jdbc.query("SELECT aggregate_identifier, payload_type, payload FROM domain_event_entry WHERE payload_type LIKE '%.IncidentOpened'"
                + " OR payload_type LIKE '%.RetryFailureCorrelated' OR payload_type LIKE '%.DuplicateDeliveryRecorded'", row -> {
            JsonNode event = json(new String(row.getBytes("payload"), StandardCharsets.UTF_8));
            String type = row.getString("payload_type");
            JsonNode at = type.endsWith("DuplicateDeliveryRecorded") ? event.path("dlqLocation") : event.path("failure").path("dlqLocation");
            if (!dlqTopic.equals(at.path("topic").asText())) {
                return;
            }
            String outcome;
            if (type.endsWith("DuplicateDeliveryRecorded")) {
                outcome = "duplicate";
            } else if (type.endsWith("RetryFailureCorrelated")) {
                outcome = "correlated";
            } else if (!event.path("failure").path("locationUnknownReason").isMissingNode()
                    && !event.path("failure").path("locationUnknownReason").isNull()) {
                outcome = "location unknown";
            } else if (event.path("correlationMismatches").toString().contains("FAILURE_KEY_TAKEN")) {
                outcome = "key taken";
            } else {
                outcome = "opened";
            }
            outcomes.computeIfAbsent(location(at), ignored -> new ArrayList<>()).add(outcome);
        });
        jdbc.query("SELECT dlq_partition, dlq_offset FROM dlq_quarantine WHERE dlq_topic = ?", row -> {
            outcomes.computeIfAbsent(new RecordLocation(dlqTopic, row.getInt(1), row.getLong(2)), ignored -> new ArrayList<>())
                    .add("quarantined");
        }, dlqTopic);
        return outcomes;
    }

    /** The DLQ record Spring's recoverer writes when the target group fails on {@code replayed} again, reporting {@code offset}. */
    private static DltRecord reFailureOf(ConsumerRecord<byte[], byte[]> replayed, long offset) {
        DltRecord record = DltRecord.failure(replayed.topic(), replayed.partition(), offset, GROUP)
                .key(replayed.key()).value(replayed.value()).without("eventId")
                .without("kafka_dlt-original-timestamp").header("kafka_dlt-original-timestamp", long8(replayed.timestamp()));
        // the replayed record's own headers (eventId and the four correlation headers), which the recoverer copies
        for (String name : List.of("eventId", ReplayHeaders.ROOT_INCIDENT_ID, ReplayHeaders.ATTEMPT, ReplayHeaders.OWNER,
                ReplayHeaders.TARGET_GROUP)) {
            record.header(name, Optional.ofNullable(replayed.headers().lastHeader(name)).orElseThrow().value());
        }
        return record;
    }

    private static DltRecord replace(DltRecord record, String header, String text) {
        return record.without(header).header(header, text);
    }

    private static DltRecord replace(DltRecord record, String header, byte[] bytes) {
        return record.without(header).header(header, bytes);
    }

    private static long sendTo(String topic, int partition, DltRecord record) throws Exception {
        return producer.send(record.to(topic, partition)).get(30, TimeUnit.SECONDS).offset();
    }

    private static RecordLocation send(int partition, DltRecord record) throws Exception {
        return new RecordLocation(MIXED_DLQ, partition, sendTo(MIXED_DLQ, partition, record));
    }

    private static List<TopicPartition> partitions() {
        return List.of(new TopicPartition(MIXED_DLQ, 0), new TopicPartition(MIXED_DLQ, 1), new TopicPartition(MIXED_DLQ, 2));
    }

    private static void awaitAllIngested(TopicPartition partition) throws Exception {
        awaitAllIngested(List.of(partition));
    }

    /** Committed up to the end of each partition: every record there has its outcome stored. */
    private static void awaitAllIngested(List<TopicPartition> partitions) throws Exception {
        Map<TopicPartition, Long> ends = new HashMap<>();
        try (Admin admin = broker.admin()) {
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            partitions.forEach(partition -> latest.put(partition, OffsetSpec.latest()));
            admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS).forEach((partition, info) -> ends.put(partition, info.offset()));
        }
        await().atMost(WAIT).untilAsserted(() -> {
            for (var end : ends.entrySet()) {
                assertThat(broker.committedOffset(INGEST_GROUP, end.getKey())).as(end.getKey().toString()).isEqualTo(end.getValue());
            }
        });
    }

    private static JsonNode detail(String incidentId) throws Exception {
        HttpResponse<String> response = RunningApp.get(app, "/api/v1/incidents/" + incidentId, "viewer", RunningApp.PASSWORD);
        assertThat(response.statusCode()).as(incidentId + ": " + response.body()).isEqualTo(200);
        return json(response.body());
    }

    private static List<String> mismatches(JsonNode incident) {
        List<String> codes = new ArrayList<>();
        incident.path("correlationMismatches").forEach(code -> codes.add(code.asText()));
        return codes;
    }

    private static RecordLocation location(JsonNode node) {
        return new RecordLocation(node.path("topic").asText(), node.path("partition").asInt(), node.path("offset").asLong());
    }

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] long8(long value) {
        return ByteBuffer.allocate(8).putLong(value).array();
    }
}

package io.dlqdesk.app;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.domain.record.RecordLocation;
import io.dlqdesk.testsupport.DltRecord;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Bad and odd DLQ records through the real broker into the running service, each with its expected
 * outcome: quarantined with a reason, an incident, a separate incident recording why it did not
 * correlate, or skipped as another deployment's. None is dropped and the service keeps going.
 */
@RealInfrastructure
class MalformedInputIT {

    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final String OURS = "billing";
    private static final int ONE_MIB = 1024 * 1024;

    @Test
    void everyBadOrOddRecordGetsItsExpectedOutcomeAndNothingStalls(TestDatabase database, KafkaBroker broker) throws Exception {
        String nonce = "m" + System.nanoTime();
        String dlqTopic = "it-" + nonce + "-orders.dlq";
        String original = "orders-" + nonce;
        String group = "ingest-" + nonce;
        IngestLedger.createTopic(broker, dlqTopic, 1, Map.of("max.message.bytes", String.valueOf(5 * ONE_MIB)));

        // only a record without its failing group, or with a corrupt timestamp, cannot become an incident
        Map<String, String> quarantineReasonByCase = new LinkedHashMap<>();
        quarantineReasonByCase.put("no failing group", "kafka_dlt-original-consumer-group");
        quarantineReasonByCase.put("4-byte timestamp", "kafka_dlt-original-timestamp");
        Map<String, DltRecord> malformed = new LinkedHashMap<>();
        malformed.put("no failing group", ours(original, 4).without("kafka_dlt-original-consumer-group"));
        malformed.put("4-byte timestamp", ours(original, 7).without("kafka_dlt-original-timestamp").header("kafka_dlt-original-timestamp", new byte[] {0, 0, 0, 1}));
        // the group is known but the original location is not: an incident of the group, keyed by its DLQ record
        Map<String, String> locationReasonByCase = new LinkedHashMap<>();
        locationReasonByCase.put("no original topic", "kafka_dlt-original-topic: missing");
        locationReasonByCase.put("no original partition", "kafka_dlt-original-partition: missing");
        locationReasonByCase.put("no original offset", "kafka_dlt-original-offset: missing");
        locationReasonByCase.put("3-byte partition", "expected 4 bytes, got 3");
        locationReasonByCase.put("negative offset", "kafka_dlt-original-offset: must be >= 0");
        locationReasonByCase.put("illegal topic name", "kafka_dlt-original-topic: not a legal Kafka topic name");
        Map<String, DltRecord> locationUnknown = new LinkedHashMap<>();
        locationUnknown.put("no original topic", ours(original, 1).without("kafka_dlt-original-topic"));
        locationUnknown.put("no original partition", ours(original, 2).without("kafka_dlt-original-partition"));
        locationUnknown.put("no original offset", ours(original, 3).without("kafka_dlt-original-offset"));
        locationUnknown.put("3-byte partition", ours(original, 5).without("kafka_dlt-original-partition").header("kafka_dlt-original-partition", new byte[] {0, 0, 1}));
        locationUnknown.put("negative offset", ours(original, 6).without("kafka_dlt-original-offset").header("kafka_dlt-original-offset", long8(-5)));
        locationUnknown.put("illegal topic name", ours(original, 9).without("kafka_dlt-original-topic").header("kafka_dlt-original-topic", "orders/../x"));

        byte[] notUtf8 = {'b', 'a', 'd', (byte) 0xC3, (byte) 0x28, '!'};
        byte[] oneMiB = new byte[ONE_MIB];
        Arrays.fill(oneMiB, (byte) 'x');
        String rootThatDoesNotExist = IncidentId.of(new FailureKey(original, 0, 77_777, OURS)).value();
        Map<String, DltRecord> incidents = new LinkedHashMap<>();
        incidents.put("non-UTF-8 exception message", ours(original, 10).without("kafka_dlt-exception-message").header("kafka_dlt-exception-message", notUtf8));
        incidents.put("tombstone value", ours(original, 11).value(null));
        incidents.put("1 MiB value", ours(original, 12).value(oneMiB));
        incidents.put("1 MiB eventId header", ours(original, 13).without("eventId").header("eventId", oneMiB));
        incidents.put("only an attempt header (separate incident)", ours(original, 15).header("dlq-incident-attempt", "1"));
        incidents.put("forged root that does not exist (separate incident)", ours(original, 16)
                .header("dlq-incident-root", rootThatDoesNotExist).header("dlq-incident-attempt", "1")
                .header("dlq-incident-owner", "dlq-incident-desk").header("dlq-incident-target-group", OURS));
        incidents.put("same record twice", ours(original, 18));
        incidents.put("no exception headers", ours(original, 19).without("kafka_dlt-exception-fqcn")
                .without("kafka_dlt-exception-cause-fqcn").without("kafka_dlt-exception-message"));
        incidents.put("no eventId", ours(original, 20).without("eventId"));
        incidents.put("offset header twice, the last one counts", ours(original, 999).header("kafka_dlt-original-offset", long8(21)));
        incidents.put("no key", ours(original, 22).key(null));
        incidents.put("empty value", ours(original, 23).value(new byte[0]));
        incidents.put("unknown timestamp type (kept raw)", ours(original, 8).without("kafka_dlt-original-timestamp-type")
                .header("kafka_dlt-original-timestamp-type", "Sometime"));

        Map<String, Long> dlqOffsets = new LinkedHashMap<>();
        try (KafkaProducer<byte[], byte[]> producer = IngestLedger.producer(broker, Map.of(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 5 * ONE_MIB))) {
            for (var entry : malformed.entrySet()) {
                dlqOffsets.put(entry.getKey(), send(producer, entry.getValue(), dlqTopic));
            }
            for (var entry : incidents.entrySet()) {
                dlqOffsets.put(entry.getKey(), send(producer, entry.getValue(), dlqTopic));
            }
            for (var entry : locationUnknown.entrySet()) {
                dlqOffsets.put(entry.getKey(), send(producer, entry.getValue(), dlqTopic));
            }
            send(producer, ours(original, 18), dlqTopic); // the same record delivered again
            send(producer, DltRecord.failure(original, 0, 14, "marketing"), dlqTopic); // another deployment's group
        }

        Map<String, Object> config = Map.of(
                "dlqdesk.ingest.topic-pattern", "it-" + nonce + "-.*\\.dlq",
                "dlqdesk.ingest.group-id", group,
                "dlqdesk.ingest.owned-groups", OURS,
                "dlqdesk.events-topic", "it-" + nonce + "-incident-events");
        try (ConfigurableApplicationContext app = RunningApp.start(database, broker, config)) {
            JdbcTemplate jdbc = app.getBean(JdbcTemplate.class);
            List<FailureKey> opened = new ArrayList<>();
            for (long offset : new long[] {8, 10, 11, 12, 13, 15, 16, 18, 19, 20, 21, 22, 23}) {
                opened.add(new FailureKey(original, 0, offset, OURS));
            }
            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(IngestLedger.incidentsOpened(jdbc, opened)).containsOnly(1);
                assertThat(broker.committedOffset(group, new TopicPartition(dlqTopic, 0))).isEqualTo(dlqOffsets.size() + 2L);
            });

            quarantineReasonByCase.forEach((name, fragment) -> assertThat(jdbc.queryForObject(
                    "SELECT reason FROM dlq_quarantine WHERE dlq_topic = ? AND dlq_offset = ?", String.class, dlqTopic, dlqOffsets.get(name)))
                    .as(name).contains(fragment));
            assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM dlq_quarantine WHERE dlq_topic = ?", Integer.class, dlqTopic))
                    .isEqualTo(malformed.size());
            assertThat(IngestLedger.incidentsOpened(jdbc, List.of(new FailureKey(original, 0, 14, "marketing"),
                    new FailureKey(original, 0, 999, OURS)))).containsOnly(0);
            assertThat(openedPayload(jdbc, new FailureKey(original, 0, 15, OURS))).contains("ROOT_INCIDENT_MISMATCH");
            assertThat(openedPayload(jdbc, new FailureKey(original, 0, 16, OURS))).contains("ROOT_INCIDENT_MISMATCH");
            assertThat(openedPayload(jdbc, new FailureKey(original, 0, 20, OURS))).doesNotContain("MISMATCH");
            assertThat(openedPayload(jdbc, new FailureKey(original, 0, 8, OURS))).contains("\"rawType\":\"Sometime\"", "UNKNOWN");
            // the same record delivered again is counted on its incident, not dropped and not a second incident
            // (the read model follows the event store within seconds)
            await().atMost(WAIT).untilAsserted(() -> {
                String twice = RunningApp.get(app, "/api/v1/incidents/" + IncidentId.of(new FailureKey(original, 0, 18, OURS)), "viewer",
                        RunningApp.PASSWORD).body();
                assertThat(twice).contains("\"duplicateDeliveries\":1");
                for (var entry : locationReasonByCase.entrySet()) {
                    String id = IncidentId.ofDlqRecord(new RecordLocation(dlqTopic, 0, dlqOffsets.get(entry.getKey()))).value();
                    String incident = RunningApp.get(app, "/api/v1/incidents/" + id, "viewer", RunningApp.PASSWORD).body();
                    assertThat(incident).as(entry.getKey()).contains("\"consumerGroup\":\"" + OURS + "\"",
                            "\"originalLocationKnown\":false", entry.getValue());
                }
            });
            // such an incident is never replayed: it says where the record was not
            Replays.setSwitch(app, true);
            String unknownLocation = IncidentId.ofDlqRecord(new RecordLocation(dlqTopic, 0, dlqOffsets.get("no original offset"))).value();
            HttpResponse<String> refused = Replays.requestReplay(app, unknownLocation);
            assertThat(refused.statusCode()).as(refused.body()).isEqualTo(422);
            assertThat(refused.body()).contains("\"LOCATION_UNKNOWN\"");
            Replays.setSwitch(app, false);

            // operators read the quarantine through the API
            String quarantine = RunningApp.get(app, "/api/v1/quarantine?topic=" + dlqTopic + "&size=100", "viewer", RunningApp.PASSWORD).body();
            assertThat(quarantine).contains("\"total\":" + malformed.size()).contains("kafka_dlt-original-consumer-group: missing")
                    .contains("\"dlqOffset\":" + dlqOffsets.get("4-byte timestamp"));

            // a re-failure naming a real incident that never had a replay: its own incident, recording every failed check
            String existingRoot = IncidentId.of(new FailureKey(original, 0, 10, OURS)).value();
            try (KafkaProducer<byte[], byte[]> producer = IngestLedger.producer(broker, Map.of())) {
                send(producer, ours(original, 17).header("dlq-incident-root", existingRoot).header("dlq-incident-attempt", "1")
                        .header("dlq-incident-owner", "someone-else").header("dlq-incident-target-group", OURS), dlqTopic);
            }
            FailureKey refailure = new FailureKey(original, 0, 17, OURS);
            await().atMost(WAIT).untilAsserted(() -> assertThat(IngestLedger.incidentsOpened(jdbc, List.of(refailure))).containsOnly(1));
            assertThat(openedPayload(jdbc, refailure)).contains("ATTEMPT_MISMATCH").contains("OWNER_MISMATCH");

            assertThat(RunningApp.get(app, "/actuator/health/readiness").body()).contains("\"status\":\"UP\"");
            MeterRegistry meters = app.getBean(MeterRegistry.class);
            // at least: a redelivered record is counted again
            assertThat(meters.get("dlq.ingest.records").tag("outcome", "quarantined").counter().count()).isGreaterThanOrEqualTo(malformed.size());
            assertThat(meters.get("dlq.ingest.records").tag("outcome", "ignored").counter().count()).isGreaterThanOrEqualTo(1.0);
            assertThat(meters.get("dlq.ingest.records").tag("outcome", "consumed").counter().count()).isGreaterThanOrEqualTo(dlqOffsets.size() + 3.0);
        }
    }

    private static DltRecord ours(String original, long offset) {
        return DltRecord.failure(original, 0, offset, OURS);
    }

    private static long send(KafkaProducer<byte[], byte[]> producer, DltRecord record, String dlqTopic) throws Exception {
        return producer.send(record.to(dlqTopic, 0)).get(30, TimeUnit.SECONDS).offset();
    }

    private static byte[] long8(long value) {
        return ByteBuffer.allocate(8).putLong(value).array();
    }

    private static String openedPayload(JdbcTemplate jdbc, FailureKey key) {
        byte[] payload = jdbc.queryForObject(
                "SELECT payload FROM domain_event_entry WHERE aggregate_identifier = ? AND payload_type LIKE '%.IncidentOpened'",
                byte[].class, IncidentId.of(key).value());
        return new String(payload, StandardCharsets.UTF_8);
    }
}

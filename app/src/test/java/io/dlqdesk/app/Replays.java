package io.dlqdesk.app;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.domain.replay.ReplayHeaders;
import io.dlqdesk.testsupport.DltRecord;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.TestDatabase;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** What the replay tests share: the switch, requests, and reading what was published. */
final class Replays {

    private static final Pattern ID = Pattern.compile("\"incidentId\":\"(inc-[0-9a-f]{32})\"");

    private Replays() {
    }

    /** The source topic of a test class's own records: {@code it-<nonce>-orders}. */
    static String ordersTopic(String nonce) {
        return "it-" + nonce + "-orders";
    }

    /**
     * A service on the test class's own topics, replays switched on: it ingests {@code it-<nonce>-orders.dlq} with a group
     * and into an events topic of its own; {@code settings} add to or override these.
     */
    static ConfigurableApplicationContext service(TestDatabase database, KafkaBroker broker, String nonce, Map<String, Object> settings)
            throws Exception {
        Map<String, Object> all = new HashMap<>(Map.of(
                "dlqdesk.ingest.topic-pattern", ordersTopic(nonce).replace("-", "\\-") + "\\.dlq",
                "dlqdesk.ingest.group-id", "ingest-" + nonce,
                "dlqdesk.events-topic", "it-" + nonce + "-incident-events"));
        all.putAll(settings);
        ConfigurableApplicationContext app = RunningApp.start(database, broker, all);
        setSwitch(app, true);
        return app;
    }

    static void setSwitch(ConfigurableApplicationContext app, boolean enabled) throws Exception {
        HttpResponse<String> response = RunningApp.put(app, "/api/v1/replay-switch", "admin",
                "{\"enabled\":" + enabled + ",\"reason\":\"test turns replay " + (enabled ? "on" : "off") + "\"}");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    }

    static HttpResponse<String> requestReplay(ConfigurableApplicationContext app, String incidentId) throws Exception {
        return RunningApp.post(app, "/api/v1/incidents/" + incidentId + "/replay", "operator", "{\"reason\":\"consumer fixed\"}");
    }

    /** The ids of the incidents listed for a topic, newest first. */
    static List<String> incidentsOf(ConfigurableApplicationContext app, String topic) throws Exception {
        String body = RunningApp.get(app, "/api/v1/incidents?topic=" + topic, "viewer", RunningApp.PASSWORD).body();
        List<String> ids = new ArrayList<>();
        Matcher matcher = ID.matcher(body);
        while (matcher.find()) {
            ids.add(matcher.group(1));
        }
        return ids;
    }

    static String statusOf(ConfigurableApplicationContext app, String incidentId) throws Exception {
        Matcher matcher = Pattern.compile("\"status\":\"([A-Z_]+)\"")
                .matcher(RunningApp.get(app, "/api/v1/incidents/" + incidentId, "viewer", RunningApp.PASSWORD).body());
        return matcher.find() ? matcher.group(1) : null;
    }

    /** How many events of a type the incident has in the event store. */
    static int events(ConfigurableApplicationContext app, String incidentId, String type) {
        return eventsIn(app.getBean(JdbcTemplate.class), incidentId, type);
    }

    /** How many events of a type the incident has, read with the test's own connection. */
    static int eventsIn(JdbcTemplate jdbc, String incidentId, String type) {
        Integer count = jdbc.queryForObject("SELECT COUNT(*) FROM domain_event_entry WHERE aggregate_identifier = ? AND payload_type LIKE ?",
                Integer.class, incidentId, "%." + type);
        return count == null ? 0 : count;
    }

    /** The payload of the incident's newest event of a type, as stored. */
    static String lastPayload(ConfigurableApplicationContext app, String incidentId, String type) {
        byte[] payload = app.getBean(JdbcTemplate.class).queryForObject(
                "SELECT payload FROM domain_event_entry WHERE aggregate_identifier = ? AND payload_type LIKE ? "
                        + "ORDER BY sequence_number DESC LIMIT 1", byte[].class, incidentId, "%." + type);
        return new String(payload, StandardCharsets.UTF_8);
    }

    /** Every record on the partition from {@code fromOffset} that is a replay of the incident. */
    static List<ConsumerRecord<byte[], byte[]>> replaysOn(KafkaBroker broker, TopicPartition partition, long fromOffset, String incidentId) {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false), new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.assign(List.of(partition));
            consumer.seek(partition, fromOffset);
            long end = consumer.endOffsets(List.of(partition)).get(partition);
            List<ConsumerRecord<byte[], byte[]>> replays = new ArrayList<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (consumer.position(partition) < end && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    if (incidentId.equals(header(record, ReplayHeaders.ROOT_INCIDENT_ID))) {
                        replays.add(record);
                    }
                }
            }
            return replays;
        }
    }

    static String header(ConsumerRecord<byte[], byte[]> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    static ProducerRecord<byte[], byte[]> record(String topic, int partition, long timestamp, byte[] key, byte[] value, String eventId) {
        ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, partition, timestamp, key, value);
        record.headers().add("eventId", eventId.getBytes(StandardCharsets.UTF_8));
        return record;
    }

    /**
     * The DLQ record a listener of {@code group} would have written for the record at {@code source}
     * when it failed on {@code failedValue}; the incident id it opens.
     */
    static String sendFailure(KafkaProducer<byte[], byte[]> producer, RecordMetadata source, String group, byte[] key, byte[] failedValue,
                              String eventId, Instant originalTime, String dlqTopic) throws Exception {
        producer.send(DltRecord.failure(source.topic(), source.partition(), source.offset(), group)
                .key(key).value(failedValue)
                .without("eventId").header("eventId", eventId)
                .without("kafka_dlt-original-timestamp")
                .header("kafka_dlt-original-timestamp", ByteBuffer.allocate(8).putLong(originalTime.toEpochMilli()).array())
                .to(dlqTopic, 0)).get(30, TimeUnit.SECONDS);
        return IncidentId.of(new FailureKey(source.topic(), source.partition(), source.offset(), group)).value();
    }

    /**
     * A PENDING outbox row no attempt stands behind (as a crash or a restore can leave one); its replay id.
     * Turn the switch off first, or the poller tries to publish it.
     */
    static String strayPendingRow(JdbcTemplate jdbc, String name) {
        String replayId = IncidentId.of(new FailureKey("stray-" + name, 0, 0, "g")).replayId(1);
        jdbc.update("INSERT INTO replay_outbox (replay_id, incident_id, attempt, source_topic, source_partition, source_offset, value_hash, "
                + "target_group, owner, status, tries, next_try_at, created_at, replay_deadline) VALUES (?, ?, 1, 'stray', 0, 0, REPEAT('0', 64), "
                + "'g', 'o', 'PENDING', 0, UTC_TIMESTAMP(6), UTC_TIMESTAMP(6), UTC_TIMESTAMP(6) + INTERVAL 1 DAY)", replayId, replayId.substring(0, replayId.indexOf('/')));
        return replayId;
    }
}

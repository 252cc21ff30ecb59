package io.dlqdesk.app;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.testsupport.DltRecord;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Our own hostile corpus, on the real broker and database: DLQ records with an oversize value in each field, control
 * characters, a 2 MiB message, a 64 KiB key, a header holding NUL, duplicated headers, forged timestamps, and records valid
 * but for one field, interleaved with ordinary failures. Every ordinary record becomes visible within a bound, every
 * hostile one ends in exactly one named outcome (an incident, a quarantine row with its reason, or a refusal), no
 * processor parks or stalls, readiness stays up throughout, and no value forges a log line.
 */
@RealInfrastructure
class HostileCorpusIT {

    private static final String NONCE = "hc" + System.nanoTime();
    private static final String ORDERS = Replays.ordersTopic(NONCE);
    private static final String DLQ = ORDERS + ".dlq";
    private static final String GROUP = "billing";
    private static final Duration VISIBLE_WITHIN = Duration.ofSeconds(60);
    private static final String FORGED = "FORGED-" + NONCE;
    /** What a forged line would start with after a CR LF in a value. */
    private static final String CRLF_FORGERY = "\r\n" + FORGED + " INFO 1 --- [main] io.dlqdesk.api.Audit : admin resolved every incident";

    private static ConfigurableApplicationContext app;
    private static KafkaProducer<byte[], byte[]> producer;
    private static JdbcTemplate jdbc;
    private static final ByteArrayOutputStream logged = new ByteArrayOutputStream();
    private static PrintStream originalOut;

    /** What must become of a hostile record. */
    private enum Outcome { INCIDENT, QUARANTINED, NOT_OURS }

    private record Case(String name, Outcome outcome, String reasonContains, DltRecord record) {
    }

    @BeforeAll
    static void start(TestDatabase database, KafkaBroker broker) throws Exception {
        originalOut = System.out;
        System.setOut(new PrintStream(new Tee(originalOut, logged), true, StandardCharsets.UTF_8));
        IngestLedger.createTopic(broker, ORDERS, 1, Map.of());
        // a DLQ topic that takes records up to 4 MiB: a 2 MiB exception message is a real Spring Kafka DLQ record's header
        IngestLedger.createTopic(broker, DLQ, 1, Map.of("max.message.bytes", String.valueOf(4 * 1024 * 1024)));
        app = Replays.service(database, broker, NONCE, Map.of("dlqdesk.replay.allowed-topics", "it-.*", "dlqdesk.ingest.owned-groups", GROUP));
        producer = IngestLedger.producer(broker, Map.of(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 4 * 1024 * 1024));
        jdbc = app.getBean(JdbcTemplate.class);
    }

    @AfterAll
    static void stop() {
        System.setOut(originalOut);
        producer.close();
        app.close();
    }

    @Test
    void everyOrdinaryRecordIsVisibleAndEveryHostileOneEndsInExactlyOneNamedOutcome() throws Exception {
        List<Case> hostile = corpus();
        AtomicBoolean watching = new AtomicBoolean(true);
        List<String> readinessSeen = new CopyOnWriteArrayList<>();
        Thread watcher = new Thread(() -> {
            while (watching.get()) {
                try {
                    HttpResponse<String> readiness = RunningApp.get(app, "/actuator/health/readiness", "admin", RunningApp.PASSWORD);
                    if (readiness.statusCode() != 200) {
                        readinessSeen.add(readiness.statusCode() + " " + readiness.body());
                    }
                    Thread.sleep(250);
                } catch (Exception e) {
                    readinessSeen.add(e.toString());
                }
            }
        }, "readiness-watch");
        watcher.start();

        List<FailureKey> ordinary = new ArrayList<>();
        Map<Case, Long> sentAt = new LinkedHashMap<>();
        int offset = 1_000;
        for (Case one : hostile) {
            FailureKey before = new FailureKey(ORDERS, 0, offset++, GROUP);
            send(DltRecord.failure(before.topic(), 0, before.offset(), GROUP));
            ordinary.add(before);
            sentAt.put(one, send(one.record()).offset());
        }
        FailureKey last = new FailureKey(ORDERS, 0, offset, GROUP);
        send(DltRecord.failure(last.topic(), 0, last.offset(), GROUP));
        ordinary.add(last);
        Instant sent = Instant.now();

        await().atMost(VISIBLE_WITHIN).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> assertThat(visible(ordinary))
                .as("ordinary records in the incident list").containsOnly(true));
        assertThat(Duration.between(sent, Instant.now())).isLessThan(VISIBLE_WITHIN);

        await().atMost(VISIBLE_WITHIN).untilAsserted(() -> {
            for (Map.Entry<Case, Long> entry : sentAt.entrySet()) {
                assertThat(outcomeOf(entry.getValue())).as(entry.getKey().name()).isNotNull();
            }
        });
        Map<String, String> wrong = new LinkedHashMap<>();
        for (Map.Entry<Case, Long> entry : sentAt.entrySet()) {
            Case one = entry.getKey();
            long dlqOffset = entry.getValue();
            List<String> reasons = jdbc.queryForList("SELECT reason FROM dlq_quarantine WHERE dlq_topic = ? AND dlq_offset = ?", String.class, DLQ,
                    dlqOffset);
            int incidents = incidentsAt(dlqOffset);
            Outcome actual = reasons.isEmpty() ? (incidents == 1 ? Outcome.INCIDENT : incidents == 0 ? Outcome.NOT_OURS : null)
                    : incidents == 0 ? Outcome.QUARANTINED : null;
            if (actual != one.outcome()) {
                wrong.put(one.name(), "expected " + one.outcome() + ", was " + (actual == null ? "both or neither" : actual)
                        + " (quarantine " + reasons + ", incidents " + incidents + ")");
            } else if (one.reasonContains() != null && !reasons.get(0).contains(one.reasonContains())) {
                wrong.put(one.name(), "quarantined for '" + reasons.get(0) + "', not naming " + one.reasonContains());
            }
        }
        assertThat(wrong).as("hostile records and their outcomes").isEmpty();

        // an original topic that is no topic name is not truncated into one: the incident is the DLQ record's, its reason names the header
        for (String name : List.of("topic of 300 characters", "topic with CR LF")) {
            long dlqOffset = sentAt.entrySet().stream().filter(entry -> entry.getKey().name().equals(name)).findFirst().orElseThrow().getValue();
            assertThat(jdbc.queryForObject("SELECT location_unknown_reason FROM incident_summary WHERE dlq_topic = ? AND dlq_offset = ?",
                    String.class, DLQ, dlqOffset)).as(name).contains("kafka_dlt-original-topic: not a legal Kafka topic name (");
        }

        // the ones kept as incidents kept their bounds
        String incidentOfLongMessage = IncidentId.of(failureAt(sentAt, "2 MiB exception message")).value();
        assertThat(Replays.lastPayload(app, incidentOfLongMessage, "IncidentOpened")).contains("\"originalMessageBytes\":" + 2 * 1024 * 1024);

        awaitProcessorsAtHead();
        assertThat(jdbc.queryForList("SELECT CONCAT(processing_group, ': ', COALESCE(cause_message, '')) FROM parked_event", String.class))
                .as("nothing parked").isEmpty();
        watching.set(false);
        watcher.join(5_000);
        assertThat(readinessSeen).as("readiness not UP while the corpus was ingested").isEmpty();
        assertNoForgedLine();
    }

    /** A request's reason and a DLQ record's header reach the log escaped: a CR LF cannot start a line of its own. */
    @Test
    void noValueFromARecordOrARequestForgesALogLine() throws Exception {
        byte[] key = "k-forged".getBytes(StandardCharsets.UTF_8);
        byte[] value = "{\"v\":1}".getBytes(StandardCharsets.UTF_8);
        RecordMetadata source = producer.send(Replays.record(ORDERS, 0, Instant.now().toEpochMilli(), key, value, "evt-forged"))
                .get(30, TimeUnit.SECONDS);
        send(DltRecord.failure(ORDERS, 0, source.offset(), GROUP).key(key).value(value).without("eventId").header("eventId", "evt-forged")
                .without("kafka_dlt-original-timestamp")
                .header("kafka_dlt-original-timestamp", ByteBuffer.allocate(8).putLong(source.timestamp()).array())
                .without("kafka_dlt-exception-message").header("kafka_dlt-exception-message", "failed" + CRLF_FORGERY));
        String id = IncidentId.of(new FailureKey(ORDERS, 0, source.offset(), GROUP)).value();
        await().atMost(VISIBLE_WITHIN).until(() -> Replays.statusOf(app, id) != null);

        HttpResponse<String> replay = RunningApp.post(app, "/api/v1/incidents/" + id + "/replay", "operator",
                "{\"reason\":\"consumer fixed" + CRLF_FORGERY.replace("\r", "\\r").replace("\n", "\\n") + "\"}");
        assertThat(replay.statusCode()).as(replay.body()).isEqualTo(202);
        await().atMost(Duration.ofSeconds(10)).until(() -> logged.toString(StandardCharsets.UTF_8).contains(FORGED));

        assertNoForgedLine();
        assertThat(logged.toString(StandardCharsets.UTF_8)).as("the reason is logged, escaped").contains("consumer fixed\\r\\n" + FORGED);
    }

    private static void assertNoForgedLine() {
        List<String> lines = Arrays.asList(logged.toString(StandardCharsets.UTF_8).split("\\R"));
        assertThat(lines).as("log lines").isNotEmpty().noneMatch(line -> line.startsWith(FORGED));
    }

    private static List<Case> corpus() {
        List<Case> corpus = new ArrayList<>();
        int offset = 0;
        corpus.add(new Case("consumer group of 300 characters", Outcome.QUARANTINED, "kafka_dlt-original-consumer-group",
                DltRecord.failure(ORDERS, 0, offset++, "g".repeat(300))));
        corpus.add(new Case("consumer group with CR LF", Outcome.QUARANTINED, "control character",
                DltRecord.failure(ORDERS, 0, offset++, GROUP + CRLF_FORGERY)));
        corpus.add(new Case("consumer group with NUL", Outcome.QUARANTINED, "control character",
                DltRecord.failure(ORDERS, 0, offset++, GROUP + "\u0000")));
        corpus.add(new Case("no consumer group at all", Outcome.QUARANTINED, "kafka_dlt-original-consumer-group",
                DltRecord.failure(ORDERS, 0, offset++, GROUP).without("kafka_dlt-original-consumer-group")));
        corpus.add(new Case("topic of 300 characters", Outcome.INCIDENT, null,
                DltRecord.failure(ORDERS, 0, offset++, GROUP).without("kafka_dlt-original-topic")
                        .header("kafka_dlt-original-topic", "t".repeat(300))));
        corpus.add(new Case("topic with CR LF", Outcome.INCIDENT, null,
                DltRecord.failure(ORDERS, 0, offset++, GROUP).without("kafka_dlt-original-topic").header("kafka_dlt-original-topic",
                        ORDERS + CRLF_FORGERY)));
        corpus.add(new Case("partition of three bytes", Outcome.INCIDENT, null,
                DltRecord.failure(ORDERS, 0, offset++, GROUP).without("kafka_dlt-original-partition")
                        .header("kafka_dlt-original-partition", new byte[] {0, 0, 1})));
        corpus.add(new Case("exception class of 10,000 characters", Outcome.INCIDENT, null,
                DltRecord.failure(ORDERS, 0, offset++, GROUP).without("kafka_dlt-exception-cause-fqcn")
                        .header("kafka_dlt-exception-cause-fqcn", "com.example." + "X".repeat(10_000))));
        corpus.add(new Case("2 MiB exception message", Outcome.INCIDENT, null,
                DltRecord.failure(ORDERS, 0, offset++, GROUP).without("kafka_dlt-exception-message")
                        .header("kafka_dlt-exception-message", new byte[2 * 1024 * 1024])));
        corpus.add(new Case("key of exactly 64 KiB", Outcome.INCIDENT, null,
                DltRecord.failure(ORDERS, 0, offset++, GROUP).key(new byte[64 * 1024])));
        corpus.add(new Case("key of 64 KiB and one byte", Outcome.QUARANTINED, "record key",
                DltRecord.failure(ORDERS, 0, offset++, GROUP).key(new byte[64 * 1024 + 1])));
        corpus.add(new Case("eventId header holding NUL", Outcome.INCIDENT, null,
                DltRecord.failure(ORDERS, 0, offset++, GROUP).without("eventId").header("eventId", "evt\u0000-1")));
        corpus.add(new Case("every header twice, the last one differing", Outcome.INCIDENT, null,
                DltRecord.failure(ORDERS, 0, offset++, "first-" + GROUP).header("kafka_dlt-original-consumer-group", GROUP)
                        .header("kafka_dlt-original-offset", ByteBuffer.allocate(8).putLong(offset + 100).array())));
        corpus.add(new Case("timestamp in the year 3000", Outcome.INCIDENT, null,
                DltRecord.failure(ORDERS, 0, offset++, GROUP).without("kafka_dlt-original-timestamp")
                        .header("kafka_dlt-original-timestamp", ByteBuffer.allocate(8).putLong(Instant.parse("3000-01-01T00:00:00Z")
                                .toEpochMilli()).array())));
        corpus.add(new Case("timestamp past what any store can hold", Outcome.QUARANTINED, "kafka_dlt-original-timestamp",
                DltRecord.failure(ORDERS, 0, offset++, GROUP).without("kafka_dlt-original-timestamp")
                        .header("kafka_dlt-original-timestamp", ByteBuffer.allocate(8).putLong(Long.MAX_VALUE).array())));
        corpus.add(new Case("negative timestamp", Outcome.QUARANTINED, "kafka_dlt-original-timestamp",
                DltRecord.failure(ORDERS, 0, offset++, GROUP).without("kafka_dlt-original-timestamp")
                        .header("kafka_dlt-original-timestamp", ByteBuffer.allocate(8).putLong(-5).array())));
        corpus.add(new Case("timestamp type of 1,000 characters", Outcome.INCIDENT, null,
                DltRecord.failure(ORDERS, 0, offset++, GROUP).without("kafka_dlt-original-timestamp-type")
                        .header("kafka_dlt-original-timestamp-type", "T".repeat(1_000))));
        corpus.add(new Case("replay root header of 300 characters", Outcome.QUARANTINED, "dlq-incident-root",
                DltRecord.failure(ORDERS, 0, offset++, GROUP).header("dlq-incident-root", "r".repeat(300))));
        corpus.add(new Case("replay owner header with CR LF", Outcome.QUARANTINED, "dlq-incident-owner",
                DltRecord.failure(ORDERS, 0, offset++, GROUP).header("dlq-incident-owner", "desk" + CRLF_FORGERY)));
        corpus.add(new Case("replay headers that name no incident", Outcome.INCIDENT, null,
                DltRecord.failure(ORDERS, 0, offset++, GROUP).header("dlq-incident-root", "inc-" + "f".repeat(32))
                        .header("dlq-incident-attempt", "1").header("dlq-incident-owner", "someone-else")
                        .header("dlq-incident-target-group", GROUP)));
        corpus.add(new Case("another service's failure", Outcome.NOT_OURS, null,
                DltRecord.failure(ORDERS, 0, offset, "not-" + "ours".repeat(10))));
        return corpus;
    }

    /** The failure a case's record names (its group and location as sent). */
    private static FailureKey failureAt(Map<Case, Long> sent, String name) {
        int index = 0;
        for (Case one : sent.keySet()) {
            if (one.name().equals(name)) {
                return new FailureKey(ORDERS, 0, index, GROUP);
            }
            index++;
        }
        throw new IllegalArgumentException(name);
    }

    private static String outcomeOf(long dlqOffset) {
        Integer quarantined = jdbc.queryForObject("SELECT COUNT(*) FROM dlq_quarantine WHERE dlq_topic = ? AND dlq_offset = ?", Integer.class,
                DLQ, dlqOffset);
        if (quarantined != null && quarantined > 0) {
            return "quarantined";
        }
        if (incidentsAt(dlqOffset) > 0) {
            return "incident";
        }
        // not ours: the loop has committed past it
        return committedPast(dlqOffset) ? "not ours" : null;
    }

    /** Incidents whose root failure, redelivery or re-failure was read from this DLQ record (the history keeps where). */
    private static int incidentsAt(long dlqOffset) {
        Integer count = jdbc.queryForObject("SELECT COUNT(DISTINCT incident_id) FROM incident_history WHERE dlq_topic = ? AND dlq_offset = ?",
                Integer.class, DLQ, dlqOffset);
        return count == null ? 0 : count;
    }

    private static boolean committedPast(long dlqOffset) {
        Long committed = jdbc.queryForObject("SELECT MAX(dlq_offset) FROM incident_history WHERE dlq_topic = ?", Long.class, DLQ);
        return committed != null && committed > dlqOffset;
    }

    private static List<Boolean> visible(List<FailureKey> failures) {
        return failures.stream().map(key -> jdbc.queryForObject("SELECT COUNT(*) FROM incident_summary WHERE incident_id = ?", Integer.class,
                IncidentId.of(key).value()) == 1).toList();
    }

    private static void awaitProcessorsAtHead() {
        long head = jdbc.queryForObject("SELECT MAX(global_index) FROM domain_event_entry", Long.class);
        var processing = app.getBean(org.axonframework.config.EventProcessingConfiguration.class);
        await().atMost(VISIBLE_WITHIN).untilAsserted(() -> processing.eventProcessors().forEach((name, processor) -> {
            if (processor instanceof org.axonframework.eventhandling.StreamingEventProcessor streaming) {
                assertThat(streaming.processingStatus().values()).as(name)
                        .allSatisfy(status -> assertThat(status.getCurrentPosition().orElse(-1)).isGreaterThanOrEqualTo(head));
            }
        }));
    }

    private static RecordMetadata send(DltRecord record) throws Exception {
        return producer.send(record.to(DLQ, 0)).get(30, TimeUnit.SECONDS);
    }

    /** Writes what the service prints both to the console and into the test's copy. */
    private static final class Tee extends OutputStream {
        private final OutputStream console;
        private final OutputStream copy;

        Tee(OutputStream console, OutputStream copy) {
            this.console = console;
            this.copy = copy;
        }

        @Override
        public synchronized void write(int b) throws java.io.IOException {
            console.write(b);
            copy.write(b);
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) throws java.io.IOException {
            console.write(b, off, len);
            copy.write(b, off, len);
        }

        @Override
        public void flush() throws java.io.IOException {
            console.flush();
        }
    }
}

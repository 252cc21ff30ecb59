package io.dlqdesk.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.testsupport.DltRecord;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What an operator's read costs does not grow with what a hostile producer wrote: the quarantine list answers summaries
 * (the headers come with one record's detail), and a DLQ record delivered a thousand times is one history row.
 */
@RealInfrastructure
class ViewerBoundsIT {

    private static final String NONCE = "vb" + System.nanoTime();
    private static final String ORDERS = "it-" + NONCE + "-orders";
    private static final String DLQ = ORDERS + ".dlq";
    private static final String GROUP = "billing";
    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final ObjectMapper JSON = new ObjectMapper();
    /** More flagged source topics than the metric family may have series. */
    private static final int SHORT_LIVED = 8;
    private static final int MAX_SERIES = 5;
    private static final List<String> SHORT_LIVED_TOPICS = java.util.stream.IntStream.range(0, SHORT_LIVED)
            .mapToObj(i -> "it-" + NONCE + "-short-" + i).toList();

    private static ConfigurableApplicationContext app;
    private static KafkaProducer<byte[], byte[]> producer;

    @BeforeAll
    static void start(TestDatabase database, KafkaBroker broker) throws Exception {
        IngestLedger.createTopic(broker, ORDERS, 1, Map.of());
        IngestLedger.createTopic(broker, DLQ, 1, Map.of());
        for (String topic : SHORT_LIVED_TOPICS) {
            IngestLedger.createTopic(broker, topic, 1, Map.of("retention.ms", "3600000"));
        }
        app = RunningApp.start(database, broker, Map.of(
                "dlqdesk.ingest.topic-pattern", "it-" + NONCE + "-.*\\.dlq",
                "dlqdesk.ingest.group-id", "ingest-" + NONCE,
                "dlqdesk.ingest.owned-groups", GROUP,
                "dlqdesk.events-topic", "it-" + NONCE + "-incident-events",
                "dlqdesk.retention.topics", String.join(",", SHORT_LIVED_TOPICS),
                "dlqdesk.metrics.max-series-per-family", Integer.toString(MAX_SERIES)));
        producer = IngestLedger.producer(broker, Map.of());
    }

    @AfterAll
    static void stop() {
        producer.close();
        app.close();
    }

    /**
     * 100 quarantined records with 192 KiB of headers each: the old list carried their 25 MiB (as base64) in one answer. A
     * summary is a few hundred bytes, so 100 of them stay far below 256 KiB whatever their headers weigh.
     */
    @Test
    void theQuarantineListOfRecordsWithHugeHeadersAnswersSummariesAndOneRecordsDetailStillShowsItsHeaders() throws Exception {
        String topic = DLQ;
        int records = 100;
        byte[] huge = new byte[192 * 1024];
        List<Future<?>> sent = new ArrayList<>();
        for (int i = 0; i < records; i++) {
            // no failing group: it can only be quarantined
            sent.add(producer.send(DltRecord.failure(ORDERS, 0, 10_000 + i, GROUP).without("kafka_dlt-original-consumer-group")
                    .header("trace-note", "visible-" + NONCE).header("blob", huge).value(new byte[64 * 1024]).to(DLQ, 0)));
        }
        for (Future<?> one : sent) {
            one.get(30, TimeUnit.SECONDS);
        }
        await().atMost(WAIT).until(() -> app.getBean(JdbcTemplate.class).queryForObject(
                "SELECT COUNT(*) FROM dlq_quarantine WHERE dlq_topic = ?", Integer.class, topic) == records);
        long firstOffset = app.getBean(JdbcTemplate.class).queryForObject("SELECT MIN(dlq_offset) FROM dlq_quarantine WHERE dlq_topic = ?",
                Long.class, topic);

        HttpResponse<String> list = RunningApp.get(app, "/api/v1/quarantine?topic=" + topic + "&size=" + records, "viewer", RunningApp.PASSWORD);
        assertThat(list.statusCode()).isEqualTo(200);
        assertThat(list.body().length()).as("a page of summaries").isLessThan(256 * 1024);
        // the allowed side: every record is still listed, with its sizes
        JsonNode page = JSON.readTree(list.body());
        assertThat(page.path("total").asLong()).isEqualTo(records);
        assertThat(page.path("items")).hasSize(records);
        assertThat(page.path("items").get(0).path("valueBytes").asInt()).isEqualTo(64 * 1024);

        // the console's list too: summaries, with the headers' size
        ConsoleSession viewer = ConsoleSession.signedIn(app, "viewer");
        HttpResponse<String> consoleList = viewer.get("/console/quarantine?topic=" + topic);
        assertThat(consoleList.statusCode()).isEqualTo(200);
        assertThat(consoleList.body()).contains("quarantined-0").doesNotContain("visible-" + NONCE);
        assertThat(consoleList.body().length()).isLessThan(256 * 1024);

        // one record's detail loads its headers
        HttpResponse<String> detail = viewer.get("/console/quarantine/" + topic + "/0/" + firstOffset);
        assertThat(detail.statusCode()).isEqualTo(200);
        assertThat(detail.body()).contains("trace-note", "visible-" + NONCE, "blob");
        // and the API's, for a viewer; a place where nothing is quarantined is a 404
        HttpResponse<String> one = RunningApp.get(app, "/api/v1/quarantine/" + topic + "/0/" + firstOffset, "viewer", RunningApp.PASSWORD);
        assertThat(one.statusCode()).isEqualTo(200);
        assertThat(one.body()).contains("trace-note", b64("visible-" + NONCE), "blob", "\"valueBytes\":" + 64 * 1024);
        assertThat(RunningApp.get(app, "/api/v1/quarantine/" + topic + "/0/999999", "viewer", RunningApp.PASSWORD).statusCode()).isEqualTo(404);
    }

    /** The incident counts every delivery; its history says so in one row instead of a thousand. */
    @Test
    void theSameDlqRecordDeliveredAThousandTimesIsOneHistoryRowWithItsCount() throws Exception {
        long offset = 42;
        IncidentId incident = IncidentId.of(new FailureKey(ORDERS, 0, offset, GROUP));
        producer.send(record(offset)).get(30, TimeUnit.SECONDS);
        await().atMost(WAIT).until(() -> RunningApp.get(app, "/api/v1/incidents/" + incident.value(), "viewer", RunningApp.PASSWORD)
                .statusCode() == 200);

        int duplicates = 1000;
        List<Future<?>> sent = new ArrayList<>();
        for (int i = 0; i < duplicates; i++) {
            sent.add(producer.send(record(offset)));
        }
        for (Future<?> one : sent) {
            one.get(30, TimeUnit.SECONDS);
        }
        await().atMost(WAIT).until(() -> JSON.readTree(RunningApp.get(app, "/api/v1/incidents/" + incident.value(), "viewer",
                RunningApp.PASSWORD).body()).path("incident").path("duplicateDeliveries").asInt() == duplicates);
        await().atMost(WAIT).untilAsserted(() -> {
            JsonNode history = history(incident);
            List<JsonNode> duplicateRows = rows(history, "DuplicateDeliveryRecorded");
            assertThat(duplicateRows).as("the duplicates, collapsed").hasSize(1);
            assertThat(duplicateRows.get(0).path("deliveries").asInt()).isEqualTo(duplicates);
            assertThat(history).as("opened, then the duplicates").hasSize(2);
        });

        // the allowed side: an operator's action after them is a row of its own
        HttpResponse<String> ack = RunningApp.post(app, "/api/v1/incidents/" + incident.value() + "/acknowledge", "operator",
                "{\"reason\":\"looking\"}");
        assertThat(ack.statusCode()).isEqualTo(204);
        await().atMost(WAIT).untilAsserted(() -> {
            JsonNode history = history(incident);
            assertThat(rows(history, "IncidentAcknowledged")).hasSize(1);
            assertThat(rows(history, "IncidentOpened")).hasSize(1);
            assertThat(history).hasSize(3);
        });
    }

    /** Eight flagged topics, a cap of five series: five keep their names, {@code other} counts the rest; the count of flagged topics stays whole. */
    @Test
    void theRetentionFlagMetricHasAtMostTheSeriesCapAndCountsTheRestAsOther() {
        MeterRegistry meters = app.getBean(MeterRegistry.class);
        await().atMost(WAIT).untilAsserted(() -> assertThat(meters.get("dlq.retention.flagged_topics").gauge().value())
                .isGreaterThanOrEqualTo(SHORT_LIVED));
        Collection<Gauge> flags = meters.find("dlq.retention.flag").gauges();
        assertThat(flags).as("the cap, and other").hasSizeLessThanOrEqualTo(MAX_SERIES + 1);
        // the allowed side: named series for some topics, and the sum still counts every flag
        assertThat(flags.stream().map(gauge -> gauge.getId().getTag("topic"))).contains("other").anyMatch(SHORT_LIVED_TOPICS::contains);
        assertThat(flags.stream().mapToDouble(Gauge::value).sum()).isGreaterThanOrEqualTo(SHORT_LIVED);
    }

    /** The report is the one made at start-up for a while (dlqdesk.retention.report-cache-ttl): viewers do not each ask the brokers. */
    @Test
    void theRetentionReportIsServedFromTheLastReportWhileItIsFresh() throws Exception {
        MeterRegistry meters = app.getBean(MeterRegistry.class);
        // the start-up check is done: no check runs again within the test (check-interval 1h)
        await().atMost(WAIT).untilAsserted(() -> assertThat(meters.get("dlq.retention.flagged_topics").gauge().value())
                .isGreaterThanOrEqualTo(SHORT_LIVED));
        JsonNode first = retentionReport();
        JsonNode second = retentionReport();
        assertThat(second.path("checkedAt").asText()).isEqualTo(first.path("checkedAt").asText());
        // the allowed side: the cached report lists the topics
        assertThat(second.path("topics").toString()).contains(SHORT_LIVED_TOPICS.get(0), "RETENTION_SHORTER_THAN_REPLAY_WINDOW");
    }

    private static JsonNode retentionReport() throws Exception {
        HttpResponse<String> response = RunningApp.get(app, "/api/v1/topics/retention", "viewer", RunningApp.PASSWORD);
        assertThat(response.statusCode()).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    private static ProducerRecord<byte[], byte[]> record(long offset) {
        return DltRecord.failure(ORDERS, 0, offset, GROUP).to(DLQ, 0);
    }

    private static JsonNode history(IncidentId incident) throws Exception {
        HttpResponse<String> response = RunningApp.get(app, "/api/v1/incidents/" + incident.value() + "/history", "viewer", RunningApp.PASSWORD);
        assertThat(response.statusCode()).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    private static List<JsonNode> rows(JsonNode history, String type) {
        List<JsonNode> rows = new ArrayList<>();
        history.forEach(row -> {
            if (row.path("eventType").asText().equals(type)) {
                rows.add(row);
            }
        });
        return rows;
    }

    private static String b64(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }
}

package io.dlqdesk.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.testsupport.DltRecord;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The export of the incident list on the real stack: DLQ records with hostile values ingested from the broker, incidents
 * opened at set times, and every export compared with what the list endpoint answers for the same filter (rows, order,
 * fields and values), in both formats; the CSV read back by an independent RFC 4180 reader. Each rule is shown refused
 * and allowed: the format, the caller's role, {@code dlqdesk.export.max-rows} (here {@value #MAX_ROWS}: the orders topic's
 * incidents exactly), the list's filter rules, paging.
 */
@RealInfrastructure
class ExportIT {

    private static final String NONCE = "ex" + System.nanoTime();
    private static final String ORDERS = Replays.ordersTopic(NONCE);
    private static final String DLQ = ORDERS + ".dlq";
    private static final String PAYMENTS = "it-" + NONCE + "-payments";
    private static final int MAX_ROWS = 11;
    private static final Instant T0 = Instant.parse("2026-11-30T08:00:00Z");
    private static final String SECRET = "sekret-" + NONCE;
    private static final String API_KEY = "api-key-" + NONCE;
    private static final String HOSTILE_GROUP = "=HYPERLINK(\"http://evil.example\",\"x\")";
    private static final byte[] BINARY_KEY = {(byte) 0xff, (byte) 0xfe, 0x00, (byte) 0x80};
    private static final String TEXT_KEY = "order-42,\"quoted\"";
    private static final String FORMULA_EVENT_ID = "=1+2,\"x\"";
    private static final ObjectMapper JSON = new ObjectMapper();

    private static ConfigurableApplicationContext app;
    private static String redactedIncident;
    private static String ackedPayment;

    @BeforeAll
    static void start(TestDatabase database, KafkaBroker broker) throws Exception {
        IngestLedger.createTopic(broker, ORDERS, 1, Map.of());
        IngestLedger.createTopic(broker, DLQ, 1, Map.of());
        app = Replays.service(database, broker, NONCE, Map.of("dlqdesk.export.max-rows", MAX_ROWS));
        try (KafkaProducer<byte[], byte[]> producer = IngestLedger.producer(broker, Map.of())) {
            send(producer, failure(1, "billing", "=cmd|' /C calc'!A0", FORMULA_EVENT_ID, "k1").header("kafka_dlt-exception-message", "no price for order 1"));
            send(producer, failure(2, "billing", "+SUM(1,2)", "-1", "k2").header("kafka_dlt-exception-message", "he said \"no\", then left, 2 times"));
            send(producer, failure(3, "billing", "-2+3", "@user", "k3"));
            send(producer, failure(4, "billing", "@evil\r\nInjected,Row", "evt-4", "k4"));
            send(producer, failure(5, "billing", "\tTabbed", "evt-5", "k5"));
            send(producer, failure(6, "billing", "\rCarriage", "evt-6", "k6"));
            send(producer, failure(7, "billing", "com.example.Ctl\u0001\u001b[31m\u007fEnd,\"x\"", "evt-7", "k7")
                    .header("kafka_dlt-exception-message", "bell \u0007 and ünïcödé 😀"));
            send(producer, failure(8, "billing", "com.example.Binary", "evt-8", null).key(BINARY_KEY));
            send(producer, failure(9, "billing", "com.example.Text", "evt-9", TEXT_KEY));
            send(producer, failure(10, HOSTILE_GROUP, "com.example.Group", "evt-10", "k10"));
            send(producer, failure(11, "billing", "com.example.Redacted", "evt-11", "k11")
                    .header("Authorization", "Bearer " + SECRET).header("X-Api-Key", API_KEY));
        }
        redactedIncident = IncidentId.of(new FailureKey(ORDERS, 0, 11, "billing")).value();
        RunningApp.openIncident(app, new FailureKey(PAYMENTS, 0, 1, "billing"), T0);
        RunningApp.openIncident(app, new FailureKey(PAYMENTS, 0, 2, "shipping"), T0.plusSeconds(1));
        RunningApp.openIncident(app, new FailureKey(PAYMENTS, 0, 3, "billing"), T0.plusSeconds(2));
        ackedPayment = IncidentId.of(new FailureKey(PAYMENTS, 0, 3, "billing")).value();
        await().atMost(Duration.ofSeconds(60)).until(() -> items("topic=" + ORDERS).size() == MAX_ROWS && items("topic=" + PAYMENTS).size() == 3);
        assertThat(RunningApp.post(app, "/api/v1/incidents/" + ackedPayment + "/acknowledge", "operator", "{\"reason\":\"export test\"}")
                .statusCode()).isEqualTo(204);
        await().atMost(Duration.ofSeconds(60)).until(() -> items("topic=" + PAYMENTS + "&status=ACKED").size() == 1);
    }

    @AfterAll
    static void stop() {
        app.close();
    }

    @Test
    void eachFilterExportsTheListsRowsInItsOrderWithItsFieldsInBothFormats() throws Exception {
        String exceptionGroup = items("topic=" + ORDERS + "&eventId=" + encode(FORMULA_EVENT_ID)).get(0).get("exceptionGroup").asText();
        List<String> filters = List.of("topic=" + ORDERS, "topic=" + PAYMENTS, "topic=" + PAYMENTS + "&status=ACKED", "group=shipping",
                "group=" + encode(HOSTILE_GROUP), "exceptionGroup=" + exceptionGroup,
                "detectedFrom=" + T0.plusSeconds(1) + "&detectedTo=" + T0.plusSeconds(2), "eventId=" + encode(FORMULA_EVENT_ID),
                "key=" + encode(TEXT_KEY), "keyHex=" + HexFormat.of().formatHex(BINARY_KEY), "topic=none-" + NONCE);
        List<String> fields = fieldNames(items("topic=" + ORDERS).get(0));
        for (String filter : filters) {
            List<JsonNode> listed = items(filter);

            HttpResponse<String> ndjson = get("/api/v1/incidents/export?format=ndjson&" + filter, "viewer");
            assertThat(ndjson.statusCode()).as(filter + ": " + ndjson.body()).isEqualTo(200);
            assertDownload(ndjson, "application/x-ndjson", "ndjson", listed.size());
            List<JsonNode> lines = new ArrayList<>();
            for (String line : ndjson.body().lines().toList()) {
                lines.add(JSON.readTree(line));
            }
            assertThat(lines).as(filter + " as NDJSON").containsExactlyElementsOf(listed);
            assertThat(ndjson.body()).as("one line each, each ended by LF").hasLineCount(listed.size())
                    .satisfies(body -> assertThat(body.isEmpty() || body.endsWith("}\n")).isTrue());

            HttpResponse<String> csv = get("/api/v1/incidents/export?format=csv&" + filter, "viewer");
            assertThat(csv.statusCode()).as(filter + ": " + csv.body()).isEqualTo(200);
            assertDownload(csv, "text/csv", "csv", listed.size());
            List<List<String>> rows = csv(csv.body());
            assertThat(rows.get(0)).as("the header: the list's fields, in its order").containsExactlyElementsOf(fields);
            assertThat(rows).as(filter + " as CSV").hasSize(listed.size() + 1);
            for (int i = 0; i < listed.size(); i++) {
                List<String> expected = new ArrayList<>();
                for (String field : fields) {
                    expected.add(cell(listed.get(i).get(field)));
                }
                assertThat(rows.get(i + 1)).as(filter + ", row " + (i + 1)).containsExactlyElementsOf(expected);
            }
            assertThat(csv.body()).endsWith("\r\n");
        }
    }

    @Test
    void hostileValuesStayInTheirCellsAndFormulasAreNeutralisedInCsvOnly() throws Exception {
        String csv = get("/api/v1/incidents/export?format=csv&topic=" + ORDERS, "viewer").body();

        assertThat(csv).contains("\"'=cmd|' /C calc'!A0\"", "\"'+SUM(1,2)\"", "\"'-2+3\"", "\"'@evil\r\nInjected,Row\"", "\"'\tTabbed\"",
                "\"'\rCarriage\"", "\"com.example.Ctl\u0001\u001b[31m\u007fEnd,\"\"x\"\"\"", "\"'=1+2,\"\"x\"\"\"", "\"'-1\"", "\"'@user\"",
                "\"'=HYPERLINK(\"\"http://evil.example\"\",\"\"x\"\")\"");
        List<List<String>> rows = csv(csv);
        assertThat(rows).hasSize(MAX_ROWS + 1).allSatisfy(row -> assertThat(row).hasSize(rows.get(0).size()));
        assertThat(rows).noneSatisfy(row -> assertThat(row).anySatisfy(cell -> assertThat(cell).matches("(?s)[=+\\-@\t\r].*")));

        String ndjson = get("/api/v1/incidents/export?format=ndjson&topic=" + ORDERS, "viewer").body();
        assertThat(ndjson.lines()).hasSize(MAX_ROWS);
        assertThat(ndjson).contains("\"exceptionClass\":\"=cmd|' /C calc'!A0\"", "\"eventId\":\"=1+2,\\\"x\\\"\"",
                "\"exceptionClass\":\"@evil\\r\\nInjected,Row\"", "\"consumerGroup\":\"=HYPERLINK(\\\"http://evil.example\\\",\\\"x\\\")\"");
    }

    @Test
    void aRedactedHeaderShowsNowhereTheListAndTheDetailDoNotShowIt() throws Exception {
        List<String> answers = List.of(get("/api/v1/incidents?topic=" + ORDERS, "viewer").body(),
                get("/api/v1/incidents/" + redactedIncident, "viewer").body(),
                get("/api/v1/incidents/" + redactedIncident + "/history", "viewer").body(),
                get("/api/v1/incidents/export?format=csv&topic=" + ORDERS, "viewer").body(),
                get("/api/v1/incidents/export?format=ndjson&topic=" + ORDERS, "viewer").body(),
                get("/api/v1/incidents/export?format=ndjson&eventId=evt-11", "viewer").body());
        assertThat(answers.get(4)).contains(redactedIncident);
        assertThat(answers.get(5)).contains(redactedIncident).hasLineCount(1);
        for (String answer : answers) {
            assertThat(answer).doesNotContain(SECRET, API_KEY, Base64.getEncoder().encodeToString(("Bearer " + SECRET).getBytes(StandardCharsets.UTF_8)));
        }
    }

    @Test
    void theFormatIsCsvOrNdjsonAndNothingElse() throws Exception {
        HttpResponse<String> other = get("/api/v1/incidents/export?format=xlsx&topic=" + PAYMENTS, "viewer");
        assertProblem(other, 400, "urn:dlqdesk:problem:invalid-input", "parameter 'format' must be csv or ndjson, was 'xlsx'");
        assertProblem(get("/api/v1/incidents/export?topic=" + PAYMENTS, "viewer"), 400, "urn:dlqdesk:problem:invalid-input",
                "parameter 'format' is required: csv or ndjson");
        assertThat(get("/api/v1/incidents/export?format=CSV&topic=" + PAYMENTS, "viewer").statusCode()).isEqualTo(200);
        assertThat(get("/api/v1/incidents/export?format=ndjson&topic=" + PAYMENTS, "viewer").statusCode()).isEqualTo(200);
    }

    @Test
    void everyRoleThatReadsTheListMayExportItAndNoOneElse() throws Exception {
        String path = "/api/v1/incidents/export?format=csv&topic=" + PAYMENTS;
        assertProblem(get(path, null), 401, "urn:dlqdesk:problem:unauthenticated", "");
        for (String reader : List.of("viewer", "operator", "admin")) {
            assertThat(get(path, reader).statusCode()).as(reader).isEqualTo(200);
        }
        for (String other : List.of("deployer", "metrics")) {
            assertProblem(get(path, other), 403, "urn:dlqdesk:problem:forbidden", "");
        }
    }

    @Test
    void moreIncidentsThanAnExportHoldsAreRefusedWithTheCountAndAsManyAreSent() throws Exception {
        HttpResponse<String> all = get("/api/v1/incidents/export?format=csv", "viewer");
        assertProblem(all, 422, "urn:dlqdesk:problem:export-too-large", "the filters match 14 incidents and an export holds at most 11");
        assertThat(JSON.readTree(all.body()).get("rows").asLong()).isEqualTo(14);
        assertThat(JSON.readTree(all.body()).get("maxRows").asLong()).isEqualTo(MAX_ROWS);
        assertThat(all.headers().firstValue("Content-Disposition")).isEmpty();

        HttpResponse<String> atTheBound = get("/api/v1/incidents/export?format=csv&topic=" + ORDERS, "viewer");
        assertThat(atTheBound.statusCode()).isEqualTo(200);
        assertThat(csv(atTheBound.body())).hasSize(MAX_ROWS + 1);

        HttpResponse<String> head = send("HEAD", "/api/v1/incidents/export?format=csv&topic=" + ORDERS, "viewer");
        assertThat(head.statusCode()).isEqualTo(200);
        assertThat(head.headers().firstValue("X-Total-Count")).hasValue(Integer.toString(MAX_ROWS));
        assertThat(head.body()).isEmpty();
        assertThat(send("HEAD", "/api/v1/incidents/export?format=csv", "viewer").statusCode()).isEqualTo(422);
    }

    @Test
    void aFilterTheListRefusesIsRefusedInTheSameWordsAndItsValidTwinIsNot() throws Exception {
        Map<String, String> refusedAndAllowed = Map.of(
                "status=BROKEN", "status=DISCARDED",
                "exceptionGroup=XYZ", "exceptionGroup=0123456789abcdef",
                "detectedFrom=" + T0.plusSeconds(2) + "&detectedTo=" + T0.plusSeconds(1), "detectedFrom=" + T0.plusSeconds(1) + "&detectedTo=" + T0.plusSeconds(2),
                "detectedFrom=yesterday", "detectedFrom=" + T0,
                "key=a&keyHex=61", "keyHex=61",
                "keyHex=zz", "key=zz");
        for (Map.Entry<String, String> pair : refusedAndAllowed.entrySet()) {
            HttpResponse<String> list = get("/api/v1/incidents?" + pair.getKey(), "viewer");
            HttpResponse<String> export = get("/api/v1/incidents/export?format=csv&topic=" + PAYMENTS + "&" + pair.getKey(), "viewer");
            assertThat(list.statusCode()).as(pair.getKey()).isEqualTo(400);
            assertProblem(export, 400, "urn:dlqdesk:problem:invalid-input", JSON.readTree(list.body()).get("detail").asText());
            assertThat(get("/api/v1/incidents/export?format=csv&topic=" + PAYMENTS + "&" + pair.getValue(), "viewer").statusCode())
                    .as(pair.getValue()).isEqualTo(200);
        }
        assertProblem(get("/api/v1/incidents/export?format=csv&topic=" + PAYMENTS + "&page=0", "viewer"), 400,
                "urn:dlqdesk:problem:invalid-input", "an export has no pages");
        assertProblem(get("/api/v1/incidents/export?format=csv&topic=" + PAYMENTS + "&size=50", "viewer"), 400,
                "urn:dlqdesk:problem:invalid-input", "an export has no pages");
    }

    private static void assertDownload(HttpResponse<String> export, String type, String extension, int rows) {
        assertThat(export.headers().firstValue("Content-Type")).hasValueSatisfying(value -> assertThat(value).startsWith(type));
        assertThat(export.headers().firstValue("Content-Disposition")).hasValueSatisfying(value -> assertThat(value)
                .matches("attachment; filename=\"incidents-\\d{8}T\\d{6}Z\\." + extension + "\""));
        assertThat(export.headers().firstValue("X-Total-Count")).hasValue(Integer.toString(rows));
        assertThat(export.headers().firstValue("Cache-Control")).hasValueSatisfying(value -> assertThat(value).contains("no-store"));
    }

    private static void assertProblem(HttpResponse<String> response, int status, String type, String detail) throws Exception {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(value -> assertThat(value).startsWith("application/problem+json"));
        JsonNode problem = JSON.readTree(response.body());
        assertThat(problem.get("type").asText()).isEqualTo(type);
        assertThat(problem.get("detail").asText()).contains(detail);
    }

    /** What the list's JSON value reads as in a CSV cell: text with a ' before a formula start, lists as their JSON, null empty. */
    private static String cell(JsonNode value) {
        if (value == null || value.isNull()) {
            return "";
        }
        if (value.isTextual()) {
            String text = value.textValue();
            return !text.isEmpty() && "=+-@\t\r".indexOf(text.charAt(0)) >= 0 ? "'" + text : text;
        }
        return value.isContainerNode() ? value.toString() : value.asText();
    }

    private static List<String> fieldNames(JsonNode item) {
        List<String> names = new ArrayList<>();
        item.fieldNames().forEachRemaining(names::add);
        return names;
    }

    /** Read by Jackson's CSV reader, not by anything of ours. */
    private static List<List<String>> csv(String body) throws Exception {
        List<List<String>> rows = new ArrayList<>();
        new CsvMapper().readerForListOf(String.class).with(CsvParser.Feature.WRAP_AS_ARRAY).<List<String>>readValues(body)
                .forEachRemaining(rows::add);
        return rows;
    }

    // ---------------------------------------------------------------------------------------------------------------------

    private static DltRecord failure(int offset, String group, String exceptionClass, String eventId, String key) {
        DltRecord record = DltRecord.failure(ORDERS, 0, offset, group).without("eventId").header("eventId", eventId)
                .without("kafka_dlt-exception-cause-fqcn").header("kafka_dlt-exception-cause-fqcn", exceptionClass)
                .without("kafka_dlt-exception-message");
        return key == null ? record : record.key(key.getBytes(StandardCharsets.UTF_8));
    }

    private static void send(KafkaProducer<byte[], byte[]> producer, DltRecord record) throws Exception {
        producer.send(record.to(DLQ, 0)).get(30, TimeUnit.SECONDS);
    }

    /** The list endpoint's items for {@code filter}, one page of 500. */
    private static List<JsonNode> items(String filter) throws Exception {
        HttpResponse<String> page = get("/api/v1/incidents?" + filter + "&size=500", "viewer");
        assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
        List<JsonNode> items = new ArrayList<>();
        JSON.readTree(page.body()).get("items").forEach(items::add);
        return items;
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    private static HttpResponse<String> get(String path, String user) throws Exception {
        return send("GET", path, user);
    }

    private static HttpResponse<String> send(String method, String path, String user) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.getEnvironment().getProperty("local.server.port")
                + path)).method(method, HttpRequest.BodyPublishers.noBody());
        if (user != null) {
            request.header("Authorization", "Basic " + Base64.getEncoder().encodeToString((user + ":" + RunningApp.PASSWORD)
                    .getBytes(StandardCharsets.UTF_8)));
        }
        return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }
}

package io.dlqdesk.app;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Reading incidents through the API: list with filters and paging, detail, and the 400/404 problems. */
@RealInfrastructure
class IncidentApiIT {

    private static final String NONCE = "a" + System.nanoTime();
    private static final FailureKey ORDERS_1 = new FailureKey("orders-" + NONCE, 0, 1, "billing");
    private static final FailureKey ORDERS_2 = new FailureKey("orders-" + NONCE, 0, 2, "shipping");
    private static final FailureKey PAYMENTS_1 = new FailureKey("payments-" + NONCE, 1, 7, "billing");
    private static ConfigurableApplicationContext app;

    @BeforeAll
    static void openIncidents(TestDatabase database, KafkaBroker broker) {
        app = RunningApp.start(database, broker, Map.of("dlqdesk.events-topic", "it-" + NONCE + "-incident-events"));
        Instant now = Instant.parse("2026-11-30T08:00:00Z");
        int second = 0;
        for (FailureKey key : new FailureKey[] {ORDERS_1, ORDERS_2, PAYMENTS_1}) {
            RunningApp.openIncident(app, key, now.plusSeconds(second++));
        }
        await().atMost(Duration.ofSeconds(60)).until(() -> read("/api/v1/incidents?size=500").body().contains(IncidentId.of(PAYMENTS_1).value()));
    }

    @AfterAll
    static void stop() {
        app.close();
    }

    @Test
    void theListFiltersByTopicAndGroupAndPagesNewestFirst() throws Exception {
        String byTopic = read("/api/v1/incidents?topic=orders-" + NONCE).body();
        assertThat(byTopic).contains(IncidentId.of(ORDERS_1).value(), IncidentId.of(ORDERS_2).value())
                .doesNotContain(IncidentId.of(PAYMENTS_1).value()).contains("\"total\":2");
        assertThat(byTopic.indexOf(IncidentId.of(ORDERS_2).value())).isLessThan(byTopic.indexOf(IncidentId.of(ORDERS_1).value()));

        String byGroup = read("/api/v1/incidents?topic=orders-" + NONCE + "&group=billing&status=OPEN").body();
        assertThat(byGroup).contains(IncidentId.of(ORDERS_1).value()).doesNotContain(IncidentId.of(ORDERS_2).value());

        String secondPage = read("/api/v1/incidents?topic=orders-" + NONCE + "&page=1&size=1").body();
        assertThat(secondPage).contains(IncidentId.of(ORDERS_1).value()).doesNotContain(IncidentId.of(ORDERS_2).value())
                .contains("\"page\":1", "\"size\":1", "\"total\":2");
    }

    @Test
    void oneIncidentIsReadByItsId() throws Exception {
        HttpResponse<String> response = read("/api/v1/incidents/" + IncidentId.of(PAYMENTS_1).value());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("\"topic\":\"payments-" + NONCE + "\"", "\"partition\":1", "\"offset\":7",
                "\"consumerGroup\":\"billing\"", "\"status\":\"OPEN\"");
    }

    @Test
    void anIdThatIsNotAnIncidentIdIsA400AndAnUnknownOneA404() throws Exception {
        HttpResponse<String> malformed = read("/api/v1/incidents/inc-not-an-id");
        assertThat(malformed.statusCode()).isEqualTo(400);
        assertThat(malformed.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
        assertThat(malformed.body()).contains("urn:dlqdesk:problem:invalid-input", "not an incident id");

        HttpResponse<String> unknown = read("/api/v1/incidents/" + IncidentId.of(new FailureKey("nowhere", 0, 0, "g")).value());
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(unknown.body()).contains("urn:dlqdesk:problem:not-found");
    }

    @Test
    void badPagingAndFiltersAre400sThatSayWhatWasWrong() throws Exception {
        assertThat(read("/api/v1/incidents?size=0").body()).contains("size must be between 1 and 500");
        assertThat(read("/api/v1/incidents?size=501").statusCode()).isEqualTo(400);
        assertThat(read("/api/v1/incidents?page=-1").body()).contains("page must be >= 0");
        HttpResponse<String> status = read("/api/v1/incidents?status=BROKEN");
        assertThat(status.statusCode()).isEqualTo(400);
        assertThat(status.body()).contains("parameter 'status' cannot be 'BROKEN'");
    }

    @Test
    void theApiDescribesItselfToItsCallers() throws Exception {
        HttpResponse<String> openApi = read("/v3/api-docs");
        assertThat(openApi.statusCode()).isEqualTo(200);
        assertThat(openApi.body()).contains("\"openapi\"", "/api/v1/incidents/{id}", "/api/v1/incidents/{id}/acknowledge",
                "/api/v1/quarantine", "/api/v1/topics/retention");
        assertThat(read("/swagger-ui/index.html").statusCode()).isEqualTo(200);
        assertThat(RunningApp.get(app, "/v3/api-docs").statusCode()).isEqualTo(401);
    }

    @Test
    void theListFindsIncidentsByEventIdAndByRecordKeyTextOrHex() throws Exception {
        String topic = "search-" + NONCE;
        byte[] binary = {0x00, (byte) 0xff, 0x10};
        IncidentId text = open(new FailureKey(topic, 0, 1, "billing"), "order-42".getBytes(java.nio.charset.StandardCharsets.UTF_8),
                "evt-42-" + NONCE);
        IncidentId sameKey = open(new FailureKey(topic + "-b", 0, 1, "billing"), "order-42".getBytes(java.nio.charset.StandardCharsets.UTF_8),
                "evt-44-" + NONCE);
        IncidentId binaryKey = open(new FailureKey(topic, 0, 2, "billing"), binary, "evt-43-" + NONCE);
        await().atMost(Duration.ofSeconds(60)).until(() -> read("/api/v1/incidents?size=500").body().contains(binaryKey.value()));

        String byEventId = read("/api/v1/incidents?eventId=evt-42-" + NONCE).body();
        assertThat(byEventId).contains(text.value(), "\"eventId\":\"evt-42-" + NONCE + "\"", "\"total\":1")
                .doesNotContain(sameKey.value(), binaryKey.value());
        assertThat(read("/api/v1/incidents?eventId=evt-none-" + NONCE).body()).contains("\"total\":0", "\"items\":[]");

        String byKey = read("/api/v1/incidents?key=order-42").body();
        assertThat(byKey).contains(text.value(), sameKey.value()).doesNotContain(binaryKey.value());
        assertThat(read("/api/v1/incidents?key=order-42&topic=" + topic).body()).contains(text.value(), "\"total\":1")
                .doesNotContain(sameKey.value());
        assertThat(read("/api/v1/incidents?keyHex=00ff10").body()).contains(binaryKey.value(), "\"total\":1").doesNotContain(text.value());
        assertThat(read("/api/v1/incidents?keyHex=6f726465722d3432&topic=" + topic).body()).as("order-42 in hex").contains(text.value());
        assertThat(read("/api/v1/incidents?key=order-4").body()).as("exact, not a prefix").doesNotContain(text.value());
        // where the DLQ record is, for reading it
        assertThat(byEventId).contains("\"dlqTopic\":\"" + topic + ".dlq\"", "\"dlqPartition\":0", "\"dlqOffset\":1");

        HttpResponse<String> both = read("/api/v1/incidents?key=a&keyHex=61");
        assertThat(both.statusCode()).isEqualTo(400);
        assertThat(both.body()).contains("urn:dlqdesk:problem:invalid-input", "not both");
        HttpResponse<String> notHex = read("/api/v1/incidents?keyHex=zz");
        assertThat(notHex.statusCode()).isEqualTo(400);
        assertThat(notHex.body()).contains("'keyHex' must be an even number of hex digits");
    }

    private static IncidentId open(FailureKey key, byte[] recordKey, String eventId) {
        app.getBean(org.axonframework.commandhandling.gateway.CommandGateway.class).sendAndWait(
                io.dlqdesk.domain.incident.OpenIncidentCommand.forFailure(new io.dlqdesk.domain.record.FailedRecord(key,
                        new io.dlqdesk.domain.record.RecordLocation(key.topic() + ".dlq", 0, key.offset()), io.dlqdesk.domain.record.RecordKey.of(recordKey),
                        new io.dlqdesk.domain.record.EventId(eventId), null, null, null), Duration.ofDays(7), Instant.now()));
        return IncidentId.of(key);
    }

    private static HttpResponse<String> read(String path) throws Exception {
        return RunningApp.get(app, path, "viewer", RunningApp.PASSWORD);
    }
}

package io.dlqdesk.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dlqdesk.consumer.ReplayKeys;
import io.dlqdesk.domain.record.PayloadHash;
import io.dlqdesk.domain.replay.ReplayHeaders;
import io.dlqdesk.testsupport.DltRecord;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.context.ConfigurableApplicationContext;

import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Audited edit-and-replay on the real stack. An editor proposes an edited JSON value and headers for an incident's record; the
 * diff (by JSON path) and the edited SHA-256 are recorded; a replay of the edit is refused until a second person approves it
 * (its proposer, who holds APPROVER too, cannot); the replay then publishes the edited bytes, signed over them, at the
 * record's key and time; its re-failure reopens the same incident, while a re-failure carrying the unedited value does not
 * correlate. Roles, bad input and the refusals each have their allowed counterpart.
 */
@RealInfrastructure
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class EditReplayIT {

    private static final String NONCE = "edit" + System.nanoTime();
    private static final String GROUP = "orders-service";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration WAIT = Duration.ofMinutes(1);
    private static final String KEY_ID = "edit-it";
    private static final String SECRET = "an edit test secret of more than thirty-two bytes";
    private static final byte[] KEY = "order-7".getBytes(StandardCharsets.UTF_8);
    private static final String SOURCE_VALUE = "{\"order\":7,\"qty\":0,\"lines\":[{\"sku\":\"a-1\"}],\"note\":\"rush\"}";
    private static final String EDITED_VALUE = "{\"order\":7,\"qty\":1,\"lines\":[{\"sku\":\"a-1\"}],\"currency\":\"EUR\"}";
    private static final String EDIT_BODY = "{\"reason\":\"qty 0 was the producer's bug (fixed in 2.1); the order had one item\","
            + "\"value\":" + JSON.valueToTree(EDITED_VALUE) + ",\"headers\":[{\"name\":\"eventId\",\"value\":\"evt-7\"},"
            + "{\"name\":\"tenant\",\"value\":\"de\"}]}";

    private static ConfigurableApplicationContext app;
    private static KafkaBroker kafka;
    private static String topic;
    private static String incident;
    private static RecordMetadata source;

    @BeforeAll
    static void start(TestDatabase database, KafkaBroker broker) throws Exception {
        kafka = broker;
        topic = Replays.ordersTopic(NONCE);
        IngestLedger.createTopic(broker, topic, 1, Map.of());
        IngestLedger.createTopic(broker, topic + ".dlq", 1, Map.of());
        byte[] value = SOURCE_VALUE.getBytes(StandardCharsets.UTF_8);
        try (KafkaProducer<byte[], byte[]> producer = IngestLedger.producer(broker, Map.of())) {
            ProducerRecord<byte[], byte[]> record = Replays.record(topic, 0, Instant.now().toEpochMilli(), KEY, value, "evt-7");
            record.headers().add("tenant", "eu".getBytes(StandardCharsets.UTF_8));
            source = producer.send(record).get(30, TimeUnit.SECONDS);
            incident = Replays.sendFailure(producer, source, GROUP, KEY, value, "evt-7", Instant.ofEpochMilli(source.timestamp()), topic + ".dlq");
        }
        Map<String, Object> settings = new HashMap<>(Map.of(
                "dlqdesk.replay.signing.active-key-id", KEY_ID,
                "dlqdesk.replay.signing.keys." + KEY_ID, SECRET,
                // the altered edit's attempt fails its tries quickly
                "dlqdesk.replay.max-tries", "2",
                "dlqdesk.replay.initial-backoff", "200ms"));
        RunningApp.user(settings, 5, "editor", "EDITOR,APPROVER"); // may approve, but never their own edit
        RunningApp.user(settings, 6, "approver", "APPROVER");
        app = Replays.service(database, broker, NONCE, settings);
        await().atMost(WAIT).until(() -> Replays.incidentsOf(app, topic).size() == 1);
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
    }

    @Test
    @Order(1)
    void anEditorsProposalIsRecordedWithItsDiffByJsonPathItsHeadersAndTheEditedHash() throws Exception {
        HttpResponse<String> proposed = RunningApp.post(app, "/api/v1/incidents/" + incident + "/edits", "editor", EDIT_BODY);
        assertThat(proposed.statusCode()).as(proposed.body()).isEqualTo(201);
        JsonNode body = JSON.readTree(proposed.body());
        String editedHash = PayloadHash.of(EDITED_VALUE.getBytes(StandardCharsets.UTF_8)).hex();
        assertThat(body.path("edit").asInt()).isEqualTo(1);
        assertThat(body.path("editedValueHash").asText()).isEqualTo(editedHash);
        JsonNode diff = body.path("diff");
        assertThat(diff.path("valueKind").asText()).isEqualTo("JSON");
        assertThat(changes(diff.path("value"))).containsExactlyInAnyOrder("/qty: 0 -> 1", "/note: \"rush\" -> null", "/currency: null -> \"EUR\"");
        assertThat(changes(diff.path("headers"))).containsExactly("tenant[0]: eu -> de");

        String stored = Replays.lastPayload(app, incident, "ReplayEditProposed");
        assertThat(stored).contains(editedHash).contains("\"principal\":\"editor\"").contains("\"at\":\"/qty\"").contains("producer's bug");
        JsonNode listed = await().atMost(WAIT).until(() -> edits("viewer"), list -> list.size() == 1);
        assertThat(listed.get(0).path("proposed").path("by").asText()).isEqualTo("editor");
        assertThat(listed.get(0).path("approval").isNull()).isTrue();
        await().atMost(WAIT).untilAsserted(() -> assertThat(history()).contains("ReplayEditProposed").contains("AWAITING_APPROVAL"));

        // the console: the diff side by side; its proposer (an approver too) is offered no approval of it, another approver is
        String asEditor = ConsoleSession.signedIn(app, "editor").get(page()).body();
        assertThat(asEditor).contains("id=\"edit-1\"").contains("AWAITING_APPROVAL").contains("action-propose-edit")
                .doesNotContain("action-approve-edit-1");
        assertThat(asEditor).containsPattern("<td class=\"mono\">/qty</td>\\s*<td class=\"mono before\">0</td>\\s*<td class=\"mono after\">1</td>")
                .containsPattern("<td class=\"mono\">header tenant\\[0\\]</td>\\s*<td class=\"mono before\">eu</td>\\s*<td class=\"mono after\">de</td>")
                .containsPattern("<td class=\"mono\">/note</td>\\s*<td class=\"mono before\">&quot;rush&quot;</td>\\s*<td class=\"mono after\">\\(removed\\)</td>");
        assertThat(ConsoleSession.signedIn(app, "approver").get(page()).body()).contains("action-approve-edit-1").doesNotContain("action-propose-edit");
        assertThat(ConsoleSession.signedIn(app, "operator").get(page()).body()).contains("id=\"edit-1\"")
                .doesNotContain("action-propose-edit").doesNotContain("action-approve-edit-1");
    }

    @Test
    @Order(2)
    void onlyTheEditorRoleProposesAndNeitherOperatorNorAdminImpliesIt() throws Exception {
        for (String user : List.of("operator", "admin", "approver", "viewer")) {
            HttpResponse<String> refused = RunningApp.post(app, "/api/v1/incidents/" + incident + "/edits", user, EDIT_BODY);
            assertThat(refused.statusCode()).as(user).isEqualTo(403);
        }
    }

    @Test
    @Order(3)
    void anEditThatChangesNothingOrTheEventIdOrForgesTheDesksHeadersIsRefusedSayingWhy() throws Exception {
        HttpResponse<String> nothing = propose("{\"reason\":\"no change\",\"value\":" + JSON.valueToTree(SOURCE_VALUE) + "}");
        assertThat(nothing.statusCode()).as(nothing.body()).isEqualTo(409);
        assertThat(nothing.body()).contains("EDIT_CHANGES_NOTHING");
        HttpResponse<String> eventId = propose("{\"reason\":\"new id\",\"value\":" + JSON.valueToTree(EDITED_VALUE)
                + ",\"headers\":[{\"name\":\"eventId\",\"value\":\"evt-8\"}]}");
        assertThat(eventId.statusCode()).as(eventId.body()).isEqualTo(409);
        assertThat(eventId.body()).contains("EDIT_CHANGES_EVENT_ID").contains("evt-8");
        HttpResponse<String> forged = propose("{\"reason\":\"forge\",\"value\":\"x\",\"headers\":[{\"name\":\"eventId\",\"value\":\"evt-7\"},"
                + "{\"name\":\"" + ReplayHeaders.ROOT_INCIDENT_ID + "\",\"value\":\"inc-0\"}]}");
        assertThat(forged.statusCode()).as(forged.body()).isEqualTo(400);
        assertThat(forged.body()).contains(ReplayHeaders.ROOT_INCIDENT_ID);
        HttpResponse<String> both = propose("{\"reason\":\"both\",\"value\":\"x\",\"valueBase64\":\"eA==\"}");
        assertThat(both.statusCode()).as(both.body()).isEqualTo(400);
        HttpResponse<String> none = propose("{\"reason\":\"none\"}");
        assertThat(none.statusCode()).as(none.body()).isEqualTo(400);
        // a proposal's body may be as large as dlqdesk.api.max-edit-body-size (3MB), far beyond a command's; its value is bounded
        HttpResponse<String> tooLong = propose("{\"reason\":\"long\",\"value\":\"" + "x".repeat(2_000_000) + "\"}");
        assertThat(tooLong.statusCode()).as(tooLong.body()).isEqualTo(400);
        assertThat(tooLong.body()).contains("at most 1000000 bytes");
        HttpResponse<String> tooLarge = propose("{\"reason\":\"huge\",\"value\":\"" + "x".repeat(3_200_000) + "\"}");
        assertThat(tooLarge.statusCode()).as(tooLarge.body()).isEqualTo(413);
        assertThat(Replays.events(app, incident, "ReplayEditProposed")).isEqualTo(1);

        // the console's form starts from the record's value, read when the dialog opens
        ConsoleSession editor = ConsoleSession.signedIn(app, "editor");
        String box = editor.get(page() + "/edit-value").body();
        assertThat(box).contains("id=\"edit-value\"").contains("&quot;note&quot; : &quot;rush&quot;").doesNotContain("edit-value-note");
        // refused with the code, then a value-only edit (the record's headers stay) is edit 2
        HttpResponse<String> refused = editor.postWithToken(page(), page() + "/edits", Map.of("reason", "new id",
                "value", EDITED_VALUE, "headers", "eventId: evt-8\r\ntenant: de"));
        assertThat(refused.statusCode()).isEqualTo(302);
        assertThat(editor.get(page()).body()).contains("EDIT_CHANGES_EVENT_ID");
        HttpResponse<String> taken = editor.postWithToken(page(), page() + "/edits", Map.of("reason", "or just the quantity",
                "value", SOURCE_VALUE.replace("\"qty\":0", "\"qty\":2"), "headers", ""));
        assertThat(taken.statusCode()).isEqualTo(302);
        assertThat(editor.get(page()).body()).contains("Edit 2 proposed");
        JsonNode second = await().atMost(WAIT).until(() -> edits("viewer"), list -> list.size() == 2).get(1);
        assertThat(changes(second.path("diff").path("value"))).containsExactly("/qty: 0 -> 2");
        assertThat(second.path("diff").path("headers")).isEmpty();
    }

    @Test
    @Order(4)
    void aReplayOfTheEditBeforeItsApprovalIsRefusedEditNotApprovedAndOfNoSuchEditEditUnknown() throws Exception {
        HttpResponse<String> unapproved = replay("{\"reason\":\"fixed data\",\"edit\":1}");
        assertThat(unapproved.statusCode()).as(unapproved.body()).isEqualTo(422);
        assertThat(JSON.readTree(unapproved.body()).path("refusals")).extracting(JsonNode::asText).containsExactly("EDIT_NOT_APPROVED");
        HttpResponse<String> unknown = replay("{\"reason\":\"fixed data\",\"edit\":9}");
        assertThat(unknown.statusCode()).as(unknown.body()).isEqualTo(422);
        assertThat(JSON.readTree(unknown.body()).path("refusals")).extracting(JsonNode::asText).containsExactly("EDIT_UNKNOWN");
        assertThat(Replays.events(app, incident, "ReplayRequested")).isZero();
    }

    @Test
    @Order(5)
    void itsProposerCannotApproveItAnOperatorMayNotASecondPersonDoesOnce() throws Exception {
        HttpResponse<String> byProposer = approve("editor", "I trust my own edit");
        assertThat(byProposer.statusCode()).as(byProposer.body()).isEqualTo(409);
        assertThat(byProposer.body()).contains("APPROVER_IS_PROPOSER");
        assertThat(approve("operator", "fine").statusCode()).isEqualTo(403);

        ConsoleSession approver = ConsoleSession.signedIn(app, "approver");
        HttpResponse<String> approved = approver.postWithToken(page(), page() + "/edits/1/approve",
                Map.of("reason", "checked order 7 in the shop: one item"));
        assertThat(approved.statusCode()).isEqualTo(302);
        assertThat(approver.get(page()).body()).contains("Edit 1 approved");
        HttpResponse<String> again = approve("approver", "once more");
        assertThat(again.statusCode()).as(again.body()).isEqualTo(409);
        assertThat(again.body()).contains("EDIT_ALREADY_APPROVED");
        JsonNode approval = await().atMost(WAIT).until(() -> edits("viewer").get(0).path("approval"), node -> !node.isNull());
        assertThat(approval.path("by").asText()).isEqualTo("approver");
        assertThat(approval.path("reason").asText()).isEqualTo("checked order 7 in the shop: one item");
        assertThat(Replays.lastPayload(app, incident, "ReplayEditApproved")).contains("\"principal\":\"approver\"");
        // an operator's replay dialog now offers the approved edit, and only that one
        String asOperator = ConsoleSession.signedIn(app, "operator").get(page()).body();
        assertThat(asOperator).contains("<option value=\"1\">approved edit 1").doesNotContain("<option value=\"2\">")
                .contains("class=\"approved-by\">approver<");
    }

    @Test
    @Order(6)
    void theReplayPublishesTheEditedBytesSignedAndItsReFailureReopensTheSameIncidentTheUneditedValueDoesNot() throws Exception {
        HttpResponse<String> accepted = replay("{\"reason\":\"replay the approved edit\",\"edit\":1}");
        assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);
        TopicPartition partition = new TopicPartition(topic, 0);
        ConsumerRecord<byte[], byte[]> replayed = await().atMost(WAIT).until(
                () -> Replays.replaysOn(kafka, partition, source.offset() + 1, incident), list -> list.size() == 1).get(0);
        assertThat(new String(replayed.value(), StandardCharsets.UTF_8)).isEqualTo(EDITED_VALUE);
        assertThat(replayed.key()).isEqualTo(KEY);
        assertThat(replayed.timestamp()).isEqualTo(source.timestamp());
        assertThat(Replays.header(replayed, "tenant")).isEqualTo("de");
        assertThat(Replays.header(replayed, "eventId")).isEqualTo("evt-7");
        assertThat(Replays.header(replayed, ReplayHeaders.ATTEMPT)).isEqualTo("1");
        // a consumer verifies the signature over what it received: the edited value
        RecordHeaders signed = new RecordHeaders();
        for (Header header : replayed.headers()) {
            if (!header.key().equals(ReplayHeaders.SIGNATURE)) {
                signed.add(header);
            }
        }
        assertThat(Replays.header(replayed, ReplayHeaders.SIGNATURE))
                .isEqualTo(ReplayKeys.of(KEY_ID, SECRET).sign(KEY_ID, topic, 0, replayed.key(), replayed.value(), signed));
        assertThat(Replays.lastPayload(app, incident, "ReplayRequested")).contains("\"number\":1")
                .contains(PayloadHash.of(EDITED_VALUE.getBytes(StandardCharsets.UTF_8)).hex());
        await().atMost(WAIT).until(() -> Replays.events(app, incident, "PublishResultRecorded") == 1);

        // closed, then the consumer fails on the edited record again: the same incident reopens
        assertThat(RunningApp.post(app, "/api/v1/incidents/" + incident + "/acknowledge", "operator", "{\"reason\":\"watching\"}").statusCode())
                .isEqualTo(204);
        assertThat(RunningApp.post(app, "/api/v1/incidents/" + incident + "/resolve", "operator", "{\"reason\":\"edited and replayed\"}")
                .statusCode()).isEqualTo(204);
        await().atMost(WAIT).until(() -> "RESOLVED".equals(Replays.statusOf(app, incident)));
        try (KafkaProducer<byte[], byte[]> producer = IngestLedger.producer(kafka, Map.of())) {
            producer.send(reFailureOf(replayed, replayed.offset(), replayed.value())).get(30, TimeUnit.SECONDS);
        }
        await().atMost(WAIT).until(() -> "OPEN".equals(Replays.statusOf(app, incident)));
        assertThat(Replays.events(app, incident, "RetryFailureCorrelated")).isEqualTo(1);
        assertThat(Replays.incidentsOf(app, topic)).containsExactly(incident);

        // the same headers on the unedited value: not what attempt 1 published, so it cannot be its re-failure
        try (KafkaProducer<byte[], byte[]> producer = IngestLedger.producer(kafka, Map.of())) {
            RecordMetadata copy = producer.send(new ProducerRecord<>(topic, 0, source.timestamp(), KEY,
                    SOURCE_VALUE.getBytes(StandardCharsets.UTF_8), replayed.headers())).get(30, TimeUnit.SECONDS);
            producer.send(reFailureOf(replayed, copy.offset(), SOURCE_VALUE.getBytes(StandardCharsets.UTF_8))).get(30, TimeUnit.SECONDS);
        }
        List<String> listed = await().atMost(WAIT).until(() -> Replays.incidentsOf(app, topic), ids -> ids.size() == 2);
        String separate = listed.stream().filter(id -> !id.equals(incident)).findFirst().orElseThrow();
        assertThat(Replays.lastPayload(app, separate, "IncidentOpened")).contains("VALUE_HASH_MISMATCH");
        assertThat(Replays.events(app, incident, "RetryFailureCorrelated")).isEqualTo(1);
    }

    @Test
    @Order(7)
    void anApprovedEditWhoseStoredBytesWereAlteredSinceIsNeverPublishedItsAttemptFails() throws Exception {
        assertThat(approve(2, "approver", "qty 2 checked").statusCode()).isEqualTo(204);
        await().atMost(WAIT).until(() -> edits("viewer").get(1).path("approval").isObject());
        int altered = app.getBean(org.springframework.jdbc.core.JdbcTemplate.class).update(
                "UPDATE replay_edit_content SET edited_value = ? WHERE incident_id = ? AND value_hash = ?",
                "{\"order\":7,\"qty\":200}".getBytes(StandardCharsets.UTF_8), incident, edits("viewer").get(1).path("editedValueHash").asText());
        assertThat(altered).isEqualTo(1);
        long end = FaultRuns.endOffsets(kafka, topic, 1).get(new TopicPartition(topic, 0));

        HttpResponse<String> accepted = replay("{\"reason\":\"replay edit 2\",\"edit\":2}");
        assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);
        int attempt = JSON.readTree(accepted.body()).path("attempt").asInt();
        await().atMost(WAIT).until(() -> Replays.lastPayload(app, incident, "PublishResultRecorded").contains("\"attempt\":" + attempt));
        assertThat(Replays.lastPayload(app, incident, "PublishResultRecorded")).contains("PUBLISH_FAILED").contains("no longer has its SHA-256");
        assertThat(Replays.replaysOn(kafka, new TopicPartition(topic, 0), end, incident)).as("nothing of the altered edit was sent").isEmpty();
    }

    /** The DLQ record {@link #GROUP} writes when it fails on the record at {@code offset} that carries the replay's headers. */
    private static ProducerRecord<byte[], byte[]> reFailureOf(ConsumerRecord<byte[], byte[]> replayed, long offset, byte[] value) {
        DltRecord failure = DltRecord.failure(topic, 0, offset, GROUP).key(KEY).value(value)
                .without("kafka_dlt-original-timestamp")
                .header("kafka_dlt-original-timestamp", ByteBuffer.allocate(8).putLong(source.timestamp()).array());
        for (Header header : replayed.headers()) {
            failure = failure.without(header.key()).header(header.key(), header.value());
        }
        return failure.to(topic + ".dlq", 0);
    }

    private static List<String> changes(JsonNode changes) {
        return java.util.stream.StreamSupport.stream(changes.spliterator(), false)
                .map(change -> change.path("at").asText() + ": " + text(change.path("before")) + " -> " + text(change.path("after"))).toList();
    }

    private static String text(JsonNode node) {
        return node.isNull() || node.isMissingNode() ? "null" : node.asText();
    }

    private static String page() {
        return "/console/incidents/" + incident;
    }

    private static HttpResponse<String> propose(String body) throws Exception {
        return RunningApp.post(app, "/api/v1/incidents/" + incident + "/edits", "editor", body);
    }

    private static HttpResponse<String> replay(String body) throws Exception {
        return RunningApp.post(app, "/api/v1/incidents/" + incident + "/replay", "operator", body);
    }

    private static HttpResponse<String> approve(String user, String reason) throws Exception {
        return approve(1, user, reason);
    }

    private static HttpResponse<String> approve(int edit, String user, String reason) throws Exception {
        return RunningApp.post(app, "/api/v1/incidents/" + incident + "/edits/" + edit + "/approve", user, "{\"reason\":\"" + reason + "\"}");
    }

    private static JsonNode edits(String user) throws Exception {
        HttpResponse<String> response = RunningApp.get(app, "/api/v1/incidents/" + incident + "/edits", user, RunningApp.PASSWORD);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    private static String history() throws Exception {
        return RunningApp.get(app, "/api/v1/incidents/" + incident + "/history", "viewer", RunningApp.PASSWORD).body();
    }
}

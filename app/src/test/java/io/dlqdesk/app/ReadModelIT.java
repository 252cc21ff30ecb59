package io.dlqdesk.app;

import io.dlqdesk.domain.incident.AcknowledgeIncidentCommand;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.IncidentStatus;
import io.dlqdesk.domain.incident.OpenIncidentCommand;
import io.dlqdesk.domain.incident.OperatorAction;
import io.dlqdesk.domain.incident.ResolveIncidentCommand;
import io.dlqdesk.domain.record.EventId;
import io.dlqdesk.domain.record.ExceptionSummary;
import io.dlqdesk.domain.record.FailedRecord;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.domain.record.OriginalTimestamp;
import io.dlqdesk.domain.record.PayloadHash;
import io.dlqdesk.domain.record.RecordKey;
import io.dlqdesk.domain.record.RecordLocation;
import io.dlqdesk.domain.record.TimestampType;
import io.dlqdesk.domain.replay.ReplayPolicy;
import io.dlqdesk.domain.replay.RequestReplayCommand;
import io.dlqdesk.domain.replay.SourceRecordFacts;
import io.dlqdesk.projections.asof.AsOfCursor;
import io.dlqdesk.projections.asof.FindIncidentsAsOfQuery;
import io.dlqdesk.projections.asof.IncidentAsOf;
import io.dlqdesk.projections.asof.IncidentStatusIntervalProjection;
import io.dlqdesk.projections.asof.IncidentsAsOfPage;
import io.dlqdesk.projections.history.IncidentHistoryProjection;
import io.dlqdesk.projections.incident.IncidentSummaryProjection;
import io.dlqdesk.projections.readiness.ReplayAttemptProjection;
import io.dlqdesk.projections.readiness.RollbackFacts;
import io.dlqdesk.projections.readiness.RollbackFactsQuery;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.common.stream.BlockingStream;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.StreamingEventProcessor;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.axonframework.eventsourcing.eventstore.EventStore;
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
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The read models over HTTP: detail with failures and attempts, history, counts, exception groups, audit, point in time, rebuild. */
@RealInfrastructure
class ReadModelIT {

    private static final String NONCE = "m" + System.nanoTime();
    private static final String ORDERS = "orders-" + NONCE;
    private static final String PAYMENTS = "payments-" + NONCE;
    private static final Duration WAIT = Duration.ofSeconds(60);
    /** Every failure of a source record is the same record: one timestamp (a replay refuses a source that disagrees). */
    private static final long SOURCE_TIMESTAMP = System.currentTimeMillis();

    private static ConfigurableApplicationContext app;
    private static CommandGateway commands;

    @BeforeAll
    static void start(TestDatabase database, KafkaBroker broker) {
        app = RunningApp.start(database, broker, Map.of("dlqdesk.events-topic", "it-" + NONCE + "-incident-events",
                "dlqdesk.ingest.topic-pattern", "it-" + NONCE + "-nothing"));
        commands = app.getBean(CommandGateway.class);
    }

    @AfterAll
    static void stop() {
        app.close();
    }

    @Test
    void theDetailListsFailuresAndAttemptsAndTheHistorySaysWhoDidWhatAndWhy() throws Exception {
        IncidentId id = open(ORDERS, 1, "billing", "com.example.PriceMissingException", "no price for order 4711");
        commands.sendAndWait(new AcknowledgeIncidentCommand(id, action("alice", "looking into the price service")));
        FailedRecord root = failure(ORDERS, 1, "billing", "com.example.PriceMissingException", "no price for order 4711");
        commands.sendAndWait(new RequestReplayCommand(id, SourceRecordFacts.found(root.failureKey().location(), 1, root.key(),
                root.eventId(), root.valueHash(), root.originalTimestamp()), new ReplayPolicy(true, 3), true, "dlq-incident-desk", action("alice", "price fixed")));

        await().atMost(WAIT).until(() -> get("/api/v1/incidents/" + id).contains("\"attempts\":[{"));
        await().atMost(WAIT).until(() -> app.getBean(QueryGateway.class).query(new RollbackFactsQuery(), RollbackFacts.class)
                .join().requestedAttempts() >= 1);
        String detail = get("/api/v1/incidents/" + id);
        assertThat(detail).contains("\"status\":\"ACKED\"", "\"failureCount\":1", "\"attemptCount\":1", "\"lastPublishStatus\":\"REQUESTED\"",
                "\"exceptionClass\":\"com.example.PriceMissingException\"", "\"eventType\":\"IncidentOpened\"",
                "\"attempt\":1,\"requestedBy\":\"alice\",\"reason\":\"price fixed\"", "\"publishStatus\":\"REQUESTED\"");

        String history = get("/api/v1/incidents/" + id + "/history");
        assertThat(history).containsSubsequence("\"eventType\":\"IncidentOpened\"", "\"eventType\":\"IncidentAcknowledged\"",
                "\"principal\":\"alice\",\"reason\":\"looking into the price service\"", "\"eventType\":\"ReplayRequested\"");
        assertThat(RunningApp.get(app, "/api/v1/incidents/" + IncidentId.of(new FailureKey("none", 0, 0, "g")) + "/history", "viewer",
                RunningApp.PASSWORD).statusCode()).isEqualTo(404);
    }

    @Test
    void failuresThatDifferOnlyInIdsAndNumbersShareAnExceptionGroupAndCountsArePerIncident() throws Exception {
        IncidentId a = open(PAYMENTS, 1, "ledger", "com.example.CardDeclinedException", "card 4111-1111 declined for payment 'p-1'");
        IncidentId b = open(PAYMENTS, 2, "ledger", "com.example.CardDeclinedException", "card 5500-0000 declined for payment 'p-2'");
        IncidentId c = open(PAYMENTS, 3, "ledger", "com.example.TimeoutException", "timed out after 30000 ms");
        await().atMost(WAIT).until(() -> get("/api/v1/incidents?topic=" + PAYMENTS).contains("\"total\":3"));

        String groups = get("/api/v1/exception-groups");
        String group = groupOf(a);
        assertThat(groupOf(b)).isEqualTo(group);
        assertThat(groupOf(c)).isNotEqualTo(group);
        assertThat(groups).contains("\"exceptionGroup\":\"" + group + "\",\"exceptionClass\":\"com.example.CardDeclinedException\","
                + "\"fingerprint\":\"card <n>-<n> declined for payment <value>\",\"openIncidents\":2,\"incidents\":2");
        assertThat(get("/api/v1/incidents?exceptionGroup=" + group)).contains("\"total\":2", a.value(), b.value()).doesNotContain(c.value());
        assertThat(get("/api/v1/incident-counts?by=topic")).contains("{\"value\":\"" + PAYMENTS + "\",\"status\":\"OPEN\",\"incidents\":3}");
        assertThat(get("/api/v1/incident-counts?by=exception-group")).contains("{\"value\":\"" + group + "\",\"status\":\"OPEN\",\"incidents\":2}");
        HttpResponse<String> bad = RunningApp.get(app, "/api/v1/incident-counts?by=colour", "viewer", RunningApp.PASSWORD);
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.body()).contains("consumer-group");
        assertThat(RunningApp.get(app, "/api/v1/incidents?exceptionGroup=xyz", "viewer", RunningApp.PASSWORD).statusCode()).isEqualTo(400);
    }

    @Test
    void theListFiltersOnTheTimeAnIncidentWasDetected() throws Exception {
        String topic = "timed-" + NONCE;
        Instant early = Instant.parse("2026-01-01T00:00:00Z");
        Instant late = Instant.parse("2026-06-01T00:00:00Z");
        commands.sendAndWait(OpenIncidentCommand.forFailure(failure(topic, 1, "g", "X", "x"), Duration.ofDays(7), early));
        commands.sendAndWait(OpenIncidentCommand.forFailure(failure(topic, 2, "g", "X", "x"), Duration.ofDays(7), late));
        await().atMost(WAIT).until(() -> get("/api/v1/incidents?topic=" + topic).contains("\"total\":2"));
        assertThat(get("/api/v1/incidents?topic=" + topic + "&detectedFrom=2026-03-01T00:00:00Z")).contains("\"total\":1", "\"offset\":2");
        assertThat(get("/api/v1/incidents?topic=" + topic + "&detectedTo=2026-03-01T00:00:00Z")).contains("\"total\":1", "\"offset\":1");
        assertThat(RunningApp.get(app, "/api/v1/incidents?detectedFrom=yesterday", "viewer", RunningApp.PASSWORD).statusCode()).isEqualTo(400);
    }

    @Test
    void theAuditListsOperatorActionsAndTheLedgerAsItStoodAtAnInstantComesFromEvents() throws Exception {
        Instant beforeOpen = Instant.now();
        awaitClockPast(beforeOpen);
        IncidentId id = open("audited-" + NONCE, 1, "g", "X", "x");
        Instant whileOpen = Instant.now();
        awaitClockPast(whileOpen);
        commands.sendAndWait(new AcknowledgeIncidentCommand(id, action("bob", "mine")));
        commands.sendAndWait(new ResolveIncidentCommand(id, action("bob", "fixed by deploy 1.4.3")));
        Instant afterResolve = Instant.now();

        // the as-of read model follows the event store within seconds
        await().atMost(WAIT).untilAsserted(() -> assertThat(get("/api/v1/audit/incidents-as-of?size=500&at=" + afterResolve))
                .containsPattern("\"incidentId\":\"" + id.value() + "\"[^}]*\"status\":\"RESOLVED\""));
        assertThat(get("/api/v1/audit/incidents-as-of?size=500&at=" + beforeOpen)).doesNotContain(id.value());
        assertThat(get("/api/v1/audit/incidents-as-of?size=500&at=" + whileOpen)).contains("\"incidentId\":\"" + id.value() + "\"")
                .containsPattern("\"incidentId\":\"" + id.value() + "\"[^}]*\"status\":\"OPEN\"");
        assertThat(RunningApp.get(app, "/api/v1/audit/incidents-as-of?at=" + afterResolve + "&size=501", "viewer", RunningApp.PASSWORD)
                .statusCode()).isEqualTo(400);

        String topic = "audited-" + NONCE;
        await().atMost(WAIT).until(() -> get("/api/v1/incident-counts?by=topic")
                .contains("{\"value\":\"" + topic + "\",\"status\":\"RESOLVED\",\"incidents\":1}"));
        assertThat(get("/api/v1/incident-counts?by=topic")).as("the incident moved from OPEN to RESOLVED, it is not in both")
                .doesNotContain("{\"value\":\"" + topic + "\",\"status\":\"OPEN\"", "{\"value\":\"" + topic + "\",\"status\":\"ACKED\"");
        assertThat(get("/api/v1/incidents?topic=" + topic + "&status=RESOLVED")).contains("\"total\":1");
        assertThat(get("/api/v1/incidents?topic=" + topic + "&status=OPEN")).contains("\"total\":0");
        await().atMost(WAIT).until(() -> get("/api/v1/audit?principal=bob").contains("fixed by deploy 1.4.3"));
        assertThat(get("/api/v1/audit?principal=bob")).containsSubsequence("\"eventType\":\"IncidentResolved\"",
                "\"eventType\":\"IncidentAcknowledged\"").doesNotContain("\"principal\":\"alice\"");
        assertThat(RunningApp.get(app, "/api/v1/audit/incidents-as-of", "viewer", RunningApp.PASSWORD).statusCode()).isEqualTo(400);
        // pages go by cursor: a token not handed out, or an offset page, is refused rather than answered with page one
        assertThat(RunningApp.get(app, "/api/v1/audit/incidents-as-of?at=" + afterResolve + "&after=bm90LW91cnM", "viewer",
                RunningApp.PASSWORD).statusCode()).isEqualTo(400);
        assertThat(RunningApp.get(app, "/api/v1/audit/incidents-as-of?at=" + afterResolve + "&page=2", "viewer", RunningApp.PASSWORD)
                .statusCode()).isEqualTo(400);
        String first = get("/api/v1/audit/incidents-as-of?size=1&at=" + afterResolve);
        var next = java.util.regex.Pattern.compile("\"next\":\"([A-Za-z0-9_-]+)\"").matcher(first);
        var firstId = java.util.regex.Pattern.compile("\"incidentId\":\"(inc-[0-9a-f]{32})\"").matcher(first);
        assertThat(next.find() && firstId.find()).as("more than one incident existed, so a first page of one has a next token: " + first)
                .isTrue();
        assertThat(get("/api/v1/audit/incidents-as-of?size=1&at=" + afterResolve + "&after=" + next.group(1)))
                .containsPattern("\"incidentId\":\"inc-").doesNotContain(firstId.group(1));
    }

    @Test
    void theLedgerAsOfAnInstantFromTheReadModelEqualsAReplayOfTheEventsUpToIt() throws Exception {
        String topic = "as-of-" + NONCE;
        IncidentId resolved = open(topic, 1, "g", "X", "x");
        IncidentId acked = open(topic, 2, "g", "X", "x");
        IncidentId discarded = open(topic, 3, "g", "X", "x");
        open(topic, 4, "g", "X", "x");
        commands.sendAndWait(new AcknowledgeIncidentCommand(resolved, action("dave", "mine")));
        commands.sendAndWait(new AcknowledgeIncidentCommand(acked, action("dave", "mine")));
        commands.sendAndWait(new ResolveIncidentCommand(resolved, action("dave", "fixed")));
        commands.sendAndWait(new AcknowledgeIncidentCommand(discarded, action("dave", "mine")));
        commands.sendAndWait(new io.dlqdesk.domain.incident.DiscardIncidentCommand(discarded, action("dave", "test data")));
        // two instances whose clocks disagree: the acknowledgement is stamped five minutes late, the resolution after it on time
        IncidentId skewed = open(topic, 5, "g", "X", "x");
        java.time.Clock honest = org.axonframework.eventhandling.GenericEventMessage.clock;
        try {
            org.axonframework.eventhandling.GenericEventMessage.clock = java.time.Clock.offset(honest, java.time.Duration.ofMinutes(5));
            commands.sendAndWait(new AcknowledgeIncidentCommand(skewed, action("erin", "ahead of time")));
        } finally {
            org.axonframework.eventhandling.GenericEventMessage.clock = honest;
        }
        commands.sendAndWait(new ResolveIncidentCommand(skewed, action("dave", "on time")));

        // the instants that matter are the events' own: exactly at one, and a nanosecond before it
        List<Instant> instants = new java.util.ArrayList<>();
        for (TrackedEventMessage<?> event : events()) {
            instants.add(event.getTimestamp());
            instants.add(event.getTimestamp().minusNanos(1));
        }
        instants.add(Instant.EPOCH);
        instants.add(Instant.now().plusSeconds(60));
        awaitCaughtUp();
        await().atMost(WAIT).untilAsserted(() -> assertThat(asOfFromReadModel(instants.get(instants.size() - 1)))
                .isEqualTo(asOfFromEvents(instants.get(instants.size() - 1))));
        for (Instant at : instants) {
            assertThat(asOfFromReadModel(at)).as("as of " + at).isEqualTo(asOfFromEvents(at));
        }
        assertThat(asOfFromReadModel(instants.get(instants.size() - 1))).extracting(IncidentAsOf::status)
                .contains(IncidentStatus.OPEN, IncidentStatus.ACKED, IncidentStatus.RESOLVED, IncidentStatus.DISCARDED);
    }

    /** Every page of the read model's answer, followed by its cursors; in incident id order, as the oracle gives it. */
    private static List<IncidentAsOf> asOfFromReadModel(Instant at) {
        QueryGateway queries = app.getBean(QueryGateway.class);
        List<IncidentAsOf> all = new java.util.ArrayList<>();
        AsOfCursor after = null;
        do {
            IncidentsAsOfPage answer = queries.query(new FindIncidentsAsOfQuery(at, after, 3), IncidentsAsOfPage.class).join();
            assertThat(answer.items()).hasSizeLessThanOrEqualTo(3);
            all.addAll(answer.items());
            after = answer.next() == null ? null : AsOfCursor.of(answer.next());
        } while (after != null);
        assertThat(all).extracting(IncidentAsOf::statusSince).as("newest status first").isSortedAccordingTo(java.util.Comparator.reverseOrder());
        assertThat(all).extracting(IncidentAsOf::incidentId).doesNotHaveDuplicates();
        return all.stream().sorted(java.util.Comparator.comparing(IncidentAsOf::incidentId)).toList();
    }

    /** The oracle: replay every event recorded at or before {@code at}, in order, as the first version of this query did. */
    private static List<IncidentAsOf> asOfFromEvents(Instant at) throws Exception {
        Map<String, IncidentAsOf> incidents = new java.util.TreeMap<>();
        for (TrackedEventMessage<?> message : events()) {
            if (message.getTimestamp().isAfter(at)) {
                continue;
            }
            Instant when = message.getTimestamp();
            Object event = message.getPayload();
            if (event instanceof io.dlqdesk.domain.api.IncidentOpened opened) {
                var key = opened.failureKey();
                incidents.put(opened.incidentId().value(), new IncidentAsOf(opened.incidentId().value(), key.topic(), key.partition(),
                        key.offset(), key.consumerGroup(), IncidentStatus.OPEN, when));
                continue;
            }
            String id = null;
            IncidentStatus status = null;
            if (event instanceof io.dlqdesk.domain.api.IncidentAcknowledged e) {
                id = e.incidentId().value();
                status = IncidentStatus.ACKED;
            } else if (event instanceof io.dlqdesk.domain.api.IncidentResolved e) {
                id = e.incidentId().value();
                status = IncidentStatus.RESOLVED;
            } else if (event instanceof io.dlqdesk.domain.api.IncidentDiscarded e) {
                id = e.incidentId().value();
                status = IncidentStatus.DISCARDED;
            } else if (event instanceof io.dlqdesk.domain.api.IncidentReopened e) {
                id = e.incidentId().value();
                status = IncidentStatus.OPEN;
            }
            IncidentAsOf before = id == null ? null : incidents.get(id);
            if (before != null) {
                incidents.put(id, new IncidentAsOf(id, before.topic(), before.partition(), before.offset(), before.consumerGroup(), status, when));
            }
        }
        return List.copyOf(incidents.values());
    }

    private static List<TrackedEventMessage<?>> events() throws Exception {
        List<TrackedEventMessage<?>> all = new java.util.ArrayList<>();
        try (BlockingStream<TrackedEventMessage<?>> stream = app.getBean(EventStore.class).openStream(null)) {
            while (stream.hasNextAvailable()) {
                all.add(stream.nextAvailable());
            }
        }
        return all;
    }

    @Test
    void resettingTheProjectionsAndReplayingAllEventsRebuildsIdenticalTables() throws Exception {
        IncidentId id = open("rebuilt-" + NONCE, 1, "g", "com.example.X", "boom 1");
        commands.sendAndWait(new AcknowledgeIncidentCommand(id, action("carol", "ack")));
        FailedRecord root = failure("rebuilt-" + NONCE, 1, "g", "com.example.X", "boom 1");
        commands.sendAndWait(new RequestReplayCommand(id, SourceRecordFacts.found(root.failureKey().location(), 1, root.key(),
                root.eventId(), root.valueHash(), root.originalTimestamp()), new ReplayPolicy(true, 3), true, "dlq-incident-desk", action("carol", "retry")));
        open("rebuilt-" + NONCE, 2, "g", "com.example.X", "boom 2");
        await().atMost(WAIT).until(() -> get("/api/v1/incidents/" + id + "/history").contains("IncidentAcknowledged")
                && get("/api/v1/incidents?topic=rebuilt-" + NONCE).contains("\"total\":2"));
        awaitCaughtUp();
        List<Map<String, Object>> summaries = table("SELECT * FROM incident_summary ORDER BY incident_id");
        List<Map<String, Object>> history = table("SELECT * FROM incident_history ORDER BY incident_id, seq");
        List<Map<String, Object>> counts = table("SELECT * FROM incident_count WHERE incidents <> 0 ORDER BY dimension, value, status");
        List<Map<String, Object>> groups = table("SELECT * FROM exception_group ORDER BY exception_group");
        List<Map<String, Object>> attempts = table("SELECT * FROM replay_attempt ORDER BY incident_id, attempt");
        List<Map<String, Object>> intervals = table("SELECT * FROM incident_status_interval ORDER BY incident_id, seq");

        EventProcessingConfiguration processing = app.getBean(EventProcessingConfiguration.class);
        for (StreamingEventProcessor processor : List.of(IncidentSummaryProjection.PROCESSING_GROUP, IncidentHistoryProjection.PROCESSING_GROUP,
                        ReplayAttemptProjection.PROCESSING_GROUP, IncidentStatusIntervalProjection.PROCESSING_GROUP).stream()
                .map(group -> processing.eventProcessorByProcessingGroup(group, StreamingEventProcessor.class).orElseThrow())
                .distinct().toList()) { // a processor may run more than one of them: reset once
            processor.shutDown();
            processor.resetTokens();
            processor.start();
        }
        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(table("SELECT * FROM incident_summary ORDER BY incident_id")).isEqualTo(summaries);
            assertThat(table("SELECT * FROM incident_history ORDER BY incident_id, seq")).isEqualTo(history);
            assertThat(table("SELECT * FROM incident_count WHERE incidents <> 0 ORDER BY dimension, value, status")).isEqualTo(counts);
            assertThat(table("SELECT * FROM exception_group ORDER BY exception_group")).isEqualTo(groups);
            assertThat(table("SELECT * FROM replay_attempt ORDER BY incident_id, attempt")).isEqualTo(attempts);
            assertThat(table("SELECT * FROM incident_status_interval ORDER BY incident_id, seq")).isEqualTo(intervals);
        });
        assertThat(summaries).isNotEmpty();
    }

    private static void awaitCaughtUp() {
        EventProcessingConfiguration processing = app.getBean(EventProcessingConfiguration.class);
        await().atMost(WAIT).until(() -> List.of(IncidentSummaryProjection.PROCESSING_GROUP, IncidentHistoryProjection.PROCESSING_GROUP,
                        ReplayAttemptProjection.PROCESSING_GROUP, IncidentStatusIntervalProjection.PROCESSING_GROUP).stream()
                .allMatch(group -> processing.eventProcessorByProcessingGroup(group, StreamingEventProcessor.class).orElseThrow()
                        .processingStatus().values().stream().allMatch(status -> status.isCaughtUp() && !status.isReplaying())));
    }

    private static List<Map<String, Object>> table(String sql) {
        return app.getBean(JdbcTemplate.class).queryForList(sql);
    }

    private static String groupOf(IncidentId id) throws Exception {
        String detail = get("/api/v1/incidents/" + id);
        int at = detail.indexOf("\"exceptionGroup\":\"") + "\"exceptionGroup\":\"".length();
        return detail.substring(at, at + 16);
    }

    private static IncidentId open(String topic, long offset, String group, String exceptionClass, String message) {
        FailedRecord failure = failure(topic, offset, group, exceptionClass, message);
        commands.sendAndWait(OpenIncidentCommand.forFailure(failure, Duration.ofDays(7), Instant.now()));
        return IncidentId.of(failure.failureKey());
    }

    private static FailedRecord failure(String topic, long offset, String group, String exceptionClass, String message) {
        byte[] value = ("{\"offset\":" + offset + "}").getBytes(StandardCharsets.UTF_8);
        return new FailedRecord(new FailureKey(topic, 0, offset, group), new RecordLocation(topic + ".dlq", 0, offset),
                RecordKey.of(("k" + offset).getBytes(StandardCharsets.UTF_8)), new EventId("evt-" + topic + "-" + offset),
                OriginalTimestamp.ofEpochMilli(SOURCE_TIMESTAMP, TimestampType.CREATE_TIME), PayloadHash.of(value),
                new ExceptionSummary(exceptionClass, message));
    }

    private static OperatorAction action(String who, String why) {
        return new OperatorAction(who, why, Instant.now());
    }

    private static String get(String path) throws Exception {
        HttpResponse<String> response = RunningApp.get(app, path, "viewer", RunningApp.PASSWORD);
        assertThat(response.statusCode()).as(path + ": " + response.body()).isIn(200, 404);
        return response.body();
    }

    private static void awaitClockPast(Instant instant) {
        await().atMost(Duration.ofSeconds(1)).pollInterval(Duration.ofMillis(1)).until(() -> Instant.now().isAfter(instant.plusMillis(2)));
    }
}

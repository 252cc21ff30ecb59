package io.dlqdesk.app;

import io.dlqdesk.domain.api.IncidentOpened;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.record.ExceptionSummary;
import io.dlqdesk.domain.record.FailedRecord;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.domain.record.RecordKey;
import io.dlqdesk.domain.record.RecordLocation;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import org.axonframework.common.jdbc.PersistenceExceptionResolver;
import org.axonframework.common.jpa.EntityManagerProvider;
import org.axonframework.common.transaction.NoTransactionManager;
import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.axonframework.eventsourcing.eventstore.EventStorageEngine;
import org.axonframework.eventsourcing.eventstore.jpa.JpaEventStorageEngine;
import org.axonframework.messaging.MetaData;
import org.axonframework.serialization.Serializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Operator commands through the API: roles, mandatory reason, the authenticated principal, 409 on a state conflict. */
@RealInfrastructure
class IncidentCommandIT {

    private static final String NONCE = "c" + System.nanoTime();
    private static ConfigurableApplicationContext app;
    private static TestDatabase database;

    @BeforeAll
    static void start(TestDatabase database, KafkaBroker broker) {
        IncidentCommandIT.database = database;
        app = RunningApp.start(database, broker, Map.of("dlqdesk.events-topic", "it-" + NONCE + "-incident-events"));
    }

    @AfterAll
    static void stop() {
        app.close();
    }

    @Test
    void anOperatorAcknowledgesThenResolvesWithAReasonAndTheEventsRecordWhoDidIt() throws Exception {
        String id = open(1);
        assertThat(RunningApp.post(app, path(id, "acknowledge"), "operator", "{\"reason\":\"looking at the price service\"}").statusCode())
                .isEqualTo(204);
        assertThat(RunningApp.post(app, path(id, "resolve"), "operator", "{\"reason\":\"price service fixed, replayed by hand\"}").statusCode())
                .isEqualTo(204);

        await().atMost(Duration.ofSeconds(60)).until(() ->
                RunningApp.get(app, "/api/v1/incidents/" + id, "viewer", RunningApp.PASSWORD).body().contains("\"status\":\"RESOLVED\""));
        String acknowledged = payload(id, "IncidentAcknowledged");
        assertThat(acknowledged).contains("\"principal\":\"operator\"", "\"reason\":\"looking at the price service\"");
    }

    @Test
    void aViewerMayNotCommand() throws Exception {
        String id = open(2);
        HttpResponse<String> response = RunningApp.post(app, path(id, "acknowledge"), "viewer", "{\"reason\":\"x\"}");
        assertThat(response.statusCode()).isEqualTo(403);
        assertThat(response.body()).contains("urn:dlqdesk:problem:forbidden");
    }

    @Test
    void theReasonIsMandatoryAndAPrincipalInTheBodyIsRefused() throws Exception {
        String id = open(3);
        for (String body : new String[] {"{}", "{\"reason\":\"   \"}", ""}) {
            HttpResponse<String> response = RunningApp.post(app, path(id, "acknowledge"), "operator", body);
            assertThat(response.statusCode()).as(body).isEqualTo(400);
            assertThat(response.body()).as(body).contains("urn:dlqdesk:problem:invalid-input");
        }
        // no command takes a principal: naming one is a field the request does not take, and nothing is done
        HttpResponse<String> named = RunningApp.post(app, path(id, "acknowledge"), "admin", "{\"reason\":\"on it\",\"principal\":\"someone-else\"}");
        assertThat(named.statusCode()).isEqualTo(400);
        assertThat(named.body()).contains("urn:dlqdesk:problem:invalid-input", "'principal'");
        assertThat(RunningApp.post(app, path(id, "acknowledge"), "admin", "{\"reason\":\"on it\"}").statusCode()).isEqualTo(204);
        assertThat(payload(id, "IncidentAcknowledged")).contains("\"principal\":\"admin\"").doesNotContain("someone-else");
    }

    @Test
    void aCommandTheIncidentsStateDoesNotAllowIsA409WithTheDomainsCode() throws Exception {
        String id = open(4);
        HttpResponse<String> early = RunningApp.post(app, path(id, "resolve"), "operator", "{\"reason\":\"done\"}");
        assertThat(early.statusCode()).isEqualTo(409);
        assertThat(early.body()).contains("urn:dlqdesk:problem:conflict", "\"code\":\"NOT_ACKNOWLEDGED\"");
        assertThat(RunningApp.post(app, path(id, "acknowledge"), "operator", "{\"reason\":\"mine\"}").statusCode()).isEqualTo(204);
        assertThat(RunningApp.post(app, path(id, "acknowledge"), "operator", "{\"reason\":\"mine again\"}").body()).contains("\"code\":\"NOT_OPEN\"");
    }

    @Test
    void unknownAndMalformedIdsAre404And400() throws Exception {
        String unknown = IncidentId.of(new FailureKey("nowhere-" + NONCE, 0, 0, "g")).value();
        assertThat(RunningApp.post(app, path(unknown, "acknowledge"), "operator", "{\"reason\":\"x\"}").statusCode()).isEqualTo(404);
        assertThat(RunningApp.post(app, path("inc-123", "acknowledge"), "operator", "{\"reason\":\"x\"}").statusCode()).isEqualTo(400);
    }

    /** Databases written before the move to the JDBC engine: their events are sourced, streamed and appended to as before. */
    @Test
    void anIncidentWhoseEventsTheJpaEngineWroteIsCommandedAndListedAsBefore() throws Exception {
        FailureKey key = new FailureKey("jpa-written-" + NONCE, 0, 7, "billing");
        FailedRecord failure = new FailedRecord(key, new RecordLocation(key.topic() + ".dlq", 0, 7), RecordKey.NONE, null, null, null, null);
        Instant detected = Instant.now();
        IncidentId id = IncidentId.of(key);
        EventStorageEngine jpa = JpaEventStorageEngine.builder().entityManagerProvider(app.getBean(EntityManagerProvider.class))
                .transactionManager(app.getBean(TransactionManager.class)).eventSerializer(app.getBean(Serializer.class))
                .snapshotSerializer(app.getBean(Serializer.class)).build();
        app.getBean(TransactionManager.class).executeInTransaction(() -> jpa.appendEvents(new GenericDomainEventMessage<>("Incident",
                id.value(), 0, new IncidentOpened(id, failure, detected, detected.plus(Duration.ofDays(7)), List.of(), null))));

        // sourced by the JDBC engine: the aggregate knows it is OPEN, so acknowledging is allowed and resolving before that is not
        assertThat(RunningApp.post(app, path(id.value(), "resolve"), "operator", "{\"reason\":\"done\"}").body()).contains("NOT_ACKNOWLEDGED");
        assertThat(RunningApp.post(app, path(id.value(), "acknowledge"), "operator", "{\"reason\":\"mine\"}").statusCode()).isEqualTo(204);
        // streamed to the read model, both events, the second appended by the JDBC engine after the first
        await().atMost(Duration.ofSeconds(60)).until(() ->
                RunningApp.get(app, "/api/v1/incidents/" + id.value(), "viewer", RunningApp.PASSWORD).body().contains("\"status\":\"ACKED\""));
        List<String> stamps = app.getBean(JdbcTemplate.class).queryForList("SELECT time_stamp FROM domain_event_entry WHERE aggregate_identifier = ?"
                + " ORDER BY sequence_number", String.class, id.value());
        assertThat(stamps).hasSize(2).allSatisfy(stamp -> assertThat(Instant.parse(stamp)).isAfterOrEqualTo(detected.minusSeconds(1)));
    }

    /** Every character a record's exception can carry: quotes, backslash, NUL, a line break, CJK, an emoji, a lone surrogate. */
    private static final String AWKWARD = "it's \"quoted\" \\ back\u0000slash\nline 日本語 😀 lone \uD800 end";

    /** Appended as text on a utf8mb4 connection (the bench's ingest path): the stored bytes are still the serializer's own. */
    @Test
    void eventsAppendedAsTextStoreTheSerializersBytesWhateverTheirCharacters() throws Exception {
        EventStoreWiring.NoSnapshotReads engine = (EventStoreWiring.NoSnapshotReads) app.getBean(EventStorageEngine.class);
        assertThat(engine.textBound()).as("the app's connection speaks utf8mb4").isTrue();
        assertStoredAsSerialized(engine, "text-bound-" + NONCE);
    }

    /** On a connection in another character set the text would not round-trip (😀 becomes ?): bytes are bound instead. */
    @Test
    void onAConnectionThatDoesNotSpeakUtf8mb4EventsAreAppendedAsBytes() throws Exception {
        DriverManagerDataSource latin1 = new DriverManagerDataSource(database.jdbcUrl() + (database.jdbcUrl().contains("?") ? "&" : "?")
                + "characterEncoding=ISO-8859-1", database.username(), database.password());
        EventStoreWiring.NoSnapshotReads engine = EventStoreWiring.engine(latin1, NoTransactionManager.INSTANCE,
                app.getBean(Serializer.class), app.getBean(PersistenceExceptionResolver.class));
        assertThat(engine.textBound()).isFalse();
        assertStoredAsSerialized(engine, "byte-bound-" + NONCE);
    }

    /** Sourcing reads ranges of sequence numbers and stops at the first range that is not full: one past a full one is read too. */
    @Test
    void anAggregateWithMoreEventsThanOneReadIsSourcedWhole() {
        EventStorageEngine engine = app.getBean(EventStorageEngine.class);
        String aggregate = "long-stream-" + NONCE;
        int events = 2 * EventStoreWiring.FETCH_BATCH + 1;
        app.getBean(TransactionManager.class).executeInTransaction(() -> engine.appendEvents(IntStream.range(0, events)
                .<EventMessage<?>>mapToObj(seq -> new GenericDomainEventMessage<>("Probe", aggregate, seq, "event " + seq)).toList()));

        List<Long> read = engine.readEvents(aggregate).asStream().map(DomainEventMessage::getSequenceNumber).toList();
        assertThat(read).hasSize(events).startsWith(0L).endsWith(events - 1L);
        assertThat(engine.readEvents(aggregate, EventStoreWiring.FETCH_BATCH).asStream().count()).isEqualTo(EventStoreWiring.FETCH_BATCH + 1);
    }

    private static void assertStoredAsSerialized(EventStorageEngine engine, String topic) {
        FailureKey key = new FailureKey(topic, 0, 1, "billing");
        FailedRecord failure = new FailedRecord(key, new RecordLocation(topic + ".dlq", 0, 1), RecordKey.of(AWKWARD.getBytes(StandardCharsets.UTF_16)),
                null, null, null, new ExceptionSummary("com.example.Bad" + AWKWARD, AWKWARD), null);
        IncidentId id = IncidentId.of(key);
        Instant detected = Instant.now();
        IncidentOpened opened = new IncidentOpened(id, failure, detected, detected.plus(Duration.ofDays(7)), List.of(), null);
        GenericDomainEventMessage<IncidentOpened> event = new GenericDomainEventMessage<>("Incident", id.value(), 0, opened, MetaData.with("note", AWKWARD));
        app.getBean(TransactionManager.class).executeInTransaction(() -> engine.appendEvents(event));

        Serializer serializer = app.getBean(Serializer.class);
        Map<String, Object> stored = app.getBean(JdbcTemplate.class).queryForMap(
                "SELECT payload, meta_data FROM domain_event_entry WHERE aggregate_identifier = ?", id.value());
        assertThat((byte[]) stored.get("payload")).isEqualTo(serializer.serialize(opened, byte[].class).getData());
        assertThat((byte[]) stored.get("meta_data")).isEqualTo(serializer.serialize(event.getMetaData(), byte[].class).getData());
        assertThat(engine.readEvents(id.value()).next().getPayload()).isEqualTo(opened);
    }

    private static String open(long offset) {
        return RunningApp.openIncident(app, new FailureKey("orders-" + NONCE, 0, offset, "billing"), Instant.now()).value();
    }

    private static String path(String id, String command) {
        return "/api/v1/incidents/" + id + "/" + command;
    }

    private static String payload(String id, String eventType) {
        byte[] payload = app.getBean(JdbcTemplate.class).queryForObject(
                "SELECT payload FROM domain_event_entry WHERE aggregate_identifier = ? AND payload_type LIKE ?", byte[].class, id, "%." + eventType);
        return new String(payload, StandardCharsets.UTF_8);
    }
}

package io.dlqdesk.app;

import io.dlqdesk.domain.api.IncidentOpened;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.OpenIncidentCommand;
import io.dlqdesk.domain.record.EventId;
import io.dlqdesk.domain.record.ExceptionSummary;
import io.dlqdesk.domain.record.FailedRecord;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.domain.record.OriginalTimestamp;
import io.dlqdesk.domain.record.PayloadHash;
import io.dlqdesk.domain.record.RecordKey;
import io.dlqdesk.domain.record.RecordLocation;
import io.dlqdesk.domain.record.TimestampType;
import io.dlqdesk.projections.incident.FindIncidentSummaryQuery;
import io.dlqdesk.projections.incident.IncidentSummaryProjection;
import io.dlqdesk.projections.incident.IncidentSummaryView;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.deadline.DeadlineManager;
import org.axonframework.deadline.dbscheduler.DbSchedulerDeadlineManager;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.EventProcessor;
import org.axonframework.eventhandling.PropagatingErrorHandler;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.axonframework.messaging.responsetypes.ResponseTypes;
import org.axonframework.queryhandling.QueryGateway;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.health.HealthEndpoint;
import org.springframework.boot.actuate.health.Status;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The whole stack on the real database and broker: the context starts, Flyway migrates, opening
 * an incident reaches the event store, the read model and the incident-events topic, including
 * events stored while the Kafka publisher was not yet running.
 */
@RealInfrastructure
class FoundationSmokeIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final Duration REPLAY_WINDOW = Duration.ofDays(7);
    private static final OriginalTimestamp ORIGINAL_TIMESTAMP = OriginalTimestamp.ofEpochMilli(1_764_400_000_123L, TimestampType.CREATE_TIME);

    @Test
    void anOpenedIncidentReachesEventStoreReadModelAndKafkaEvenWhenStoredBeforeThePublisherFirstRan(
            TestDatabase database, KafkaBroker broker) throws Exception {
        String topic = "smoke-incident-events-" + System.nanoTime();
        FailureKey early = new FailureKey("orders", 2, 1001L, "billing");
        FailureKey late = new FailureKey("orders", 2, 1002L, "billing");

        try (ConfigurableApplicationContext app = start(database, broker, topic, Map.of("axon.kafka.publisher.enabled", "false"))) {
            assertThat(appliedMigrations(app)).contains("100", "110", "400");
            assertThat(app.getBean(DeadlineManager.class)).isInstanceOf(DbSchedulerDeadlineManager.class);
            assertThat(app.getEnvironment().getProperty("axon.update-check.disabled", Boolean.class)).isTrue();
            assertThat(app.getEnvironment().getProperty("spring.jpa.hibernate.ddl-auto")).isEqualTo("validate");
            EventProcessingConfiguration processing = app.getBean(EventProcessingConfiguration.class);
            assertThat(processing.listenerInvocationErrorHandler(IncidentSummaryProjection.PROCESSING_GROUP))
                    .isInstanceOf(PropagatingErrorHandler.class);
            // the incident list, history and as-of read models are run by one processor; the rollback facts by their own
            for (String group : List.of("incident-summary", "incident-history", "incident-as-of")) {
                assertThat(processing.eventProcessorByProcessingGroup(group)).as(group).map(EventProcessor::getName).contains("incident-read-models");
            }
            assertThat(processing.eventProcessorByProcessingGroup("rollback-facts")).map(EventProcessor::getName).contains("rollback-facts");

            open(app, early);

            List<? extends DomainEventMessage<?>> stored = app.getBean(EventStore.class)
                    .readEvents(IncidentId.of(early).value()).asStream().toList();
            assertThat(stored).singleElement().satisfies(event -> {
                assertThat(event.getPayload()).isEqualTo(new IncidentOpened(IncidentId.of(early), failure(early), detectedAt(),
                        ORIGINAL_TIMESTAMP.instant().plus(REPLAY_WINDOW), List.of()));
                assertThat(event.getSequenceNumber()).isZero();
            });
            await().atMost(WAIT).untilAsserted(() -> assertThat(summary(app, early)).hasValueSatisfying(view -> {
                assertThat(view.topic()).isEqualTo("orders");
                assertThat(view.partition()).isEqualTo(2);
                assertThat(view.offset()).isEqualTo(1001L);
                assertThat(view.consumerGroup()).isEqualTo("billing");
            }));
        }

        try (ConfigurableApplicationContext app = start(database, broker, topic, Map.of())) {
            open(app, late);

            List<ConsumerRecord<String, byte[]>> published = EventsTopic.readUntil(broker, topic, WAIT,
                    records -> EventsTopic.mentions(records, IncidentId.of(early).value())
                            && EventsTopic.mentions(records, IncidentId.of(late).value()));
            assertThat(published).anySatisfy(record -> isIncidentOpened(record, early))
                    .anySatisfy(record -> isIncidentOpened(record, late));
            assertThat(health(app)).contains("\"status\":\"UP\"").contains("\"dlqIngest\"").contains("lastPoll");
            // the segments the shipped configuration creates (docs/configuration.md): two for the processors worth
            // spreading over instances, one for those that handle few events (every segment costs every event)
            JdbcTemplate jdbc = app.getBean(JdbcTemplate.class);
            Map<String, Integer> segments = Map.of("incident-read-models", 2, "rollback-facts", 2, "replay-saga", 2,
                    "incident-events-kafka-publisher", 2, "incident-alerts", 1, "incident-notifications", 1, "replay-jobs", 1, "replay-job-runner", 1);
            await().atMost(WAIT).untilAsserted(() -> assertThat(segmentsByProcessor(jdbc)).containsAllEntriesOf(segments));
            assertThat(app.getBean(HealthEndpoint.class).healthForPath("liveness", "dlqIngestLiveness").getStatus()).isEqualTo(Status.UP);
        }
    }

    @Test
    void withIngestDisabledTheServiceStartsAndReadinessSaysSo(TestDatabase database, KafkaBroker broker) throws Exception {
        try (ConfigurableApplicationContext app = start(database, broker, "unused-" + System.nanoTime(), Map.of("dlqdesk.ingest.enabled", "false"))) {
            assertThat(health(app)).contains("\"status\":\"UP\"").contains("\"enabled\":false");
        }
    }

    @Test
    void theServiceRefusesToStartWithoutABrokerAddressRatherThanGuessingOne(TestDatabase database, KafkaBroker broker) {
        Map<String, Object> properties = properties(database, broker, "unused-topic", Map.of());
        properties.remove("spring.kafka.bootstrap-servers");
        assertThatThrownBy(() -> RunningApp.run(properties).close())
                .hasStackTraceContaining("spring.kafka.bootstrap-servers");
    }

    private static ConfigurableApplicationContext start(TestDatabase database, KafkaBroker broker, String topic, Map<String, Object> extra) {
        return RunningApp.run(properties(database, broker, topic, extra));
    }

    private static Map<String, Object> properties(TestDatabase database, KafkaBroker broker, String topic, Map<String, Object> extra) {
        Map<String, Object> properties = RunningApp.properties(database, broker, extra);
        properties.put("dlqdesk.events-topic", topic);
        return properties;
    }

    private static Instant detectedAt() {
        return Instant.parse("2026-11-30T07:00:00.123456Z");
    }

    private static void open(ConfigurableApplicationContext app, FailureKey key) {
        app.getBean(CommandGateway.class).sendAndWait(OpenIncidentCommand.forFailure(failure(key), REPLAY_WINDOW, detectedAt()));
    }

    /** A DLQ record with every optional fact present, so that each survives the round trip through JSON. */
    private static FailedRecord failure(FailureKey key) {
        byte[] value = ("{\"orderId\":" + key.offset() + "}").getBytes(StandardCharsets.UTF_8);
        return new FailedRecord(key, new RecordLocation(key.topic() + ".dlq", 0, key.offset() + 7),
                RecordKey.of(new byte[] {0, 1, (byte) 0xFF}), new EventId("evt-" + key.offset()), ORIGINAL_TIMESTAMP,
                PayloadHash.of(value), ExceptionSummary.truncating("com.example.PriceMissingException", "no price for SKU-1"));
    }

    private static Optional<IncidentSummaryView> summary(ConfigurableApplicationContext app, FailureKey key) {
        return app.getBean(QueryGateway.class).query(new FindIncidentSummaryQuery(IncidentId.of(key)),
                ResponseTypes.optionalInstanceOf(IncidentSummaryView.class)).join();
    }

    private static Map<String, Integer> segmentsByProcessor(JdbcTemplate jdbc) {
        Map<String, Integer> segments = new HashMap<>();
        jdbc.query("SELECT processor_name, COUNT(*) FROM token_entry GROUP BY processor_name", row -> {
            segments.put(row.getString(1), row.getInt(2));
        });
        return segments;
    }

    private static List<String> appliedMigrations(ConfigurableApplicationContext app) {
        return Arrays.stream(app.getBean(Flyway.class).info().applied()).map(MigrationInfo::getVersion)
                .map(Object::toString).toList();
    }

    private static void isIncidentOpened(ConsumerRecord<String, byte[]> record, FailureKey key) {
        assertThat(new String(record.value(), StandardCharsets.UTF_8)).contains(IncidentId.of(key).value());
        assertThat(new String(record.headers().lastHeader("axon-message-type").value(), StandardCharsets.UTF_8))
                .isEqualTo(IncidentOpened.class.getName());
    }

    /** Readiness with its details, which only an admin is shown. */
    private static String health(ConfigurableApplicationContext app) throws Exception {
        HttpResponse<String> response = RunningApp.get(app, "/actuator/health/readiness", "admin", RunningApp.PASSWORD);
        assertThat(response.statusCode()).isEqualTo(200);
        return response.body();
    }
}

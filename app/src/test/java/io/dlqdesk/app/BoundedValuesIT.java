package io.dlqdesk.app;

import io.dlqdesk.domain.correlation.CorrelateRetryFailureCommand;
import io.dlqdesk.domain.correlation.CorrelationMismatch;
import io.dlqdesk.domain.incident.AcknowledgeIncidentCommand;
import io.dlqdesk.domain.incident.DiscardIncidentCommand;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.IncidentStatus;
import io.dlqdesk.domain.incident.OpenIncidentCommand;
import io.dlqdesk.domain.incident.OperatorAction;
import io.dlqdesk.domain.incident.ResolveIncidentCommand;
import io.dlqdesk.domain.job.CreateReplayJobCommand;
import io.dlqdesk.domain.job.PauseReplayJobCommand;
import io.dlqdesk.domain.job.ReplayJobId;
import io.dlqdesk.domain.job.ReplayJobLimits;
import io.dlqdesk.domain.job.ReplayJobPauseReason;
import io.dlqdesk.domain.job.ReplayJobStatus;
import io.dlqdesk.domain.parked.EventParked;
import io.dlqdesk.domain.parked.ParkedEvent;
import io.dlqdesk.domain.parked.ParkedEventEvicted;
import io.dlqdesk.domain.parked.ParkedEventsRetried;
import io.dlqdesk.domain.rebuild.ReadModelRebuildRequested;
import io.dlqdesk.rebuild.RebuildPhase;
import io.dlqdesk.rebuild.RebuildView;
import io.dlqdesk.domain.record.DlqDialect;
import io.dlqdesk.domain.record.EventId;
import io.dlqdesk.domain.record.ExceptionSummary;
import io.dlqdesk.domain.record.FailedRecord;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.domain.record.OriginalTimestamp;
import io.dlqdesk.domain.record.PayloadHash;
import io.dlqdesk.domain.record.RecordKey;
import io.dlqdesk.domain.record.RecordLocation;
import io.dlqdesk.domain.replay.MarkPublishUnknownCommand;
import io.dlqdesk.domain.replay.PublishResult;
import io.dlqdesk.domain.replay.PublishStatus;
import io.dlqdesk.domain.replay.RecordPublishResultCommand;
import io.dlqdesk.domain.replay.ReplayHeaders;
import io.dlqdesk.domain.replay.ReplayPolicy;
import io.dlqdesk.domain.replay.ReplayRefusal;
import io.dlqdesk.domain.replay.RequestReplayCommand;
import io.dlqdesk.domain.replay.SourceRecordFacts;
import io.dlqdesk.domain.replay.WaiveReplayConsumptionCommand;
import io.dlqdesk.ingest.loop.QuarantineStore;
import io.dlqdesk.notifications.delivery.Deliveries;
import io.dlqdesk.projections.history.IncidentHistoryProjection;
import io.dlqdesk.projections.incident.ExceptionGroup;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.StreamingEventProcessor;
import org.axonframework.eventhandling.gateway.EventGateway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Every value from outside has a bound held in the domain (ARCHITECTURE §16), and no event can carry a value a read model
 * cannot store: every column of the desk's tables is tied to the bound of what it holds, and the largest event of every
 * type goes through every event processor on the real database without a single one parked.
 */
@RealInfrastructure
class BoundedValuesIT {

    private static final Duration WAIT = Duration.ofSeconds(90);
    /** Three UTF-8 bytes each, so a bound in characters is also the most bytes such text can take. */
    private static final char WIDE = '€';
    private static final Instant NOW = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.MILLIS);

    /** Axon's and its libraries' own tables: they hold what Axon and db-scheduler write, sized by them. */
    private static final List<String> NOT_OURS = List.of("association_value_entry", "dead_letter_entry", "domain_event_entry", "saga_entry",
            "snapshot_event_entry", "token_entry", "scheduled_tasks", "flyway_schema_history", "parked_event");

    private static ConfigurableApplicationContext app;
    private static JdbcTemplate jdbc;

    @BeforeAll
    static void start(TestDatabase database, KafkaBroker broker) {
        String nonce = "bv" + System.nanoTime();
        app = RunningApp.start(database, broker, Map.of(
                "dlqdesk.ingest.topic-pattern", "it-" + nonce + "-.*\\.dlq",
                "dlqdesk.events-topic", "it-" + nonce + "-incident-events",
                // the replays requested here are never sent: their source records do not exist
                "dlqdesk.replay.force-off", "true"));
        jdbc = app.getBean(JdbcTemplate.class);
    }

    @AfterAll
    static void stop() {
        app.close();
    }

    /** Each text column holds values of a known bound: one from outside (a domain bound), or one the desk makes itself. */
    @Test
    void everyTextColumnIsAtLeastAsWideAsTheBoundOfWhatItHolds() {
        Map<String, Integer> bounds = new TreeMap<>();
        for (String column : List.of("incident_summary.topic", "incident_summary.dlq_topic", "incident_history.dlq_topic",
                "incident_status_interval.topic", "replay_attempt.published_topic", "replay_attempt.target_topic",
                "replay_outbox.source_topic", "dlq_quarantine.dlq_topic")) {
            bounds.put(column, RecordLocation.MAX_TOPIC_LENGTH);
        }
        for (String column : List.of("incident_summary.consumer_group", "incident_status_interval.consumer_group", "replay_attempt.target_group",
                "replay_outbox.target_group")) {
            bounds.put(column, FailureKey.MAX_GROUP_LENGTH);
        }
        bounds.put("incident_summary.event_id", EventId.MAX_LENGTH);
        bounds.put("incident_summary.exception_class", ExceptionSummary.MAX_CLASS_LENGTH);
        bounds.put("exception_group.exception_class", ExceptionSummary.MAX_CLASS_LENGTH);
        bounds.put("incident_summary.exception_fingerprint", ExceptionGroup.MAX_FINGERPRINT);
        bounds.put("exception_group.fingerprint", ExceptionGroup.MAX_FINGERPRINT);
        bounds.put("incident_summary.location_unknown_reason", FailedRecord.MAX_REASON_LENGTH);
        // a location's count row: topic, a newline, group
        bounds.put("incident_count.value", RecordLocation.MAX_TOPIC_LENGTH + 1 + FailureKey.MAX_GROUP_LENGTH);
        bounds.put("incident_summary.correlation_mismatches", Arrays.stream(CorrelationMismatch.values()).map(Enum::name)
                .collect(Collectors.joining(", ", "[", "]")).length());
        for (String column : List.of("incident_history.principal", "replay_job.created_by", "replay_job.approved_by",
                "replay_job_run.principal", "replay_switch_change.changed_by", "admin_action.principal", "replay_attempt.waived_by", "replay_edit.proposed_by",
                "replay_edit.approved_by")) {
            bounds.put(column, OperatorAction.MAX_PRINCIPAL_LENGTH);
        }
        for (String column : List.of("incident_history.reason", "replay_job.reason", "replay_job.approval_reason", "replay_job_run.reason",
                "replay_switch_change.reason", "admin_action.reason", "replay_attempt.waived_reason", "replay_edit.proposal_reason",
                "replay_edit.approval_reason")) {
            bounds.put(column, OperatorAction.MAX_REASON_LENGTH);
        }
        bounds.put("replay_job.selection", CreateReplayJobCommand.MAX_SELECTION_LENGTH);
        bounds.put("replay_outbox.owner", 249); // a ledger name, as every command checks it (CommandArguments)
        bounds.put("replay_outbox.last_error", PublishResult.MAX_REASON_LENGTH);
        bounds.put("admin_action.processing_group", ParkedEvent.MAX_NAME_LENGTH);
        // a bulk rebuild's row: a processor's name as its events bound it, who and why, our phases, and what the code cuts
        bounds.put("read_model_rebuild.rebuild_id", ReadModelRebuildRequested.MAX_ID_LENGTH);
        bounds.put("read_model_rebuild.processor", ParkedEvent.MAX_NAME_LENGTH);
        bounds.put("read_model_rebuild.phase", longest(RebuildPhase.values()));
        bounds.put("read_model_rebuild.requested_by", OperatorAction.MAX_PRINCIPAL_LENGTH);
        bounds.put("read_model_rebuild.cancelled_by", OperatorAction.MAX_PRINCIPAL_LENGTH);
        bounds.put("read_model_rebuild.reason", OperatorAction.MAX_REASON_LENGTH);
        bounds.put("read_model_rebuild.failure", RebuildView.MAX_FAILURE_LENGTH);
        bounds.put("read_model_rebuild.owner", RebuildView.MAX_RUNS_ON_LENGTH);
        bounds.put("admin_action.sequence_identifier", ParkedEvent.MAX_NAME_LENGTH);
        // cut to these by the code that writes them
        bounds.put("incident_history.detail", IncidentHistoryProjection.MAX_DETAIL);
        bounds.put("admin_action.detail", 1000);
        bounds.put("dlq_quarantine.reason", QuarantineStore.MAX_REASON);
        bounds.put("notification_delivery.last_error", Deliveries.MAX_ERROR_LENGTH);
        bounds.put("notification_delivery.summary", Deliveries.MAX_SUMMARY_LENGTH);
        // names of our enums
        bounds.put("incident_summary.status", longest(IncidentStatus.values()));
        bounds.put("incident_status_interval.status", longest(IncidentStatus.values()));
        bounds.put("incident_count.status", longest(IncidentStatus.values()));
        bounds.put("incident_summary.last_publish_status", longest(PublishStatus.values()));
        bounds.put("incident_summary.dlq_dialect", longest(DlqDialect.values()));
        bounds.put("incident_history.publish_status", longest(PublishStatus.values()));
        bounds.put("replay_attempt.status", longest(PublishStatus.values()));
        bounds.put("replay_job_item.publish_status", longest(PublishStatus.values()));
        bounds.put("replay_job_refusal.refusal", longest(ReplayRefusal.values()));
        for (String column : List.of("replay_job.status", "replay_job_active.status", "replay_job_run.status")) {
            bounds.put(column, longest(ReplayJobStatus.values()));
        }
        bounds.put("replay_job.pause_reason", longest(ReplayJobPauseReason.values()));
        bounds.put("notification_delivery.event", longest(io.dlqdesk.notifications.NotificationEvent.values())); // its wire name, as long
        bounds.put("notification_rate_window.event", longest(io.dlqdesk.notifications.NotificationEvent.values()));
        // a receiver's name (configuration: 1-64) and the id of the summary a held row went into (a notification id)
        bounds.put("notification_rate_window.receiver", 64);
        bounds.put("notification_delivery.coalesced_into", 200);
        // identifiers the desk makes: inc-/job- and 32 hex digits, UUIDs, SHA-256 and its prefixes, a replay id
        for (String column : List.of("incident_summary.incident_id", "incident_history.incident_id", "incident_status_interval.incident_id",
                "replay_attempt.incident_id", "replay_outbox.incident_id", "replay_job.job_id", "replay_job_active.job_id",
                "replay_job_item.job_id", "replay_job_item.incident_id", "replay_job_refusal.job_id", "replay_job_run.job_id",
                "notification_exception_group.first_incident_id", "admin_action.event_id", "replay_edit.incident_id",
                "replay_edit_content.incident_id")) {
            bounds.put(column, 36);
        }
        bounds.put("replay_outbox.replay_id", 36 + 1 + 10);
        bounds.put("incident_summary.key_sha256", 64);
        for (String column : List.of("replay_outbox.value_hash", "replay_outbox.edit_content_hash", "replay_edit.edited_value_hash",
                "replay_edit.content_hash", "replay_edit_content.content_hash", "replay_edit_content.value_hash")) {
            bounds.put(column, 64);
        }
        bounds.put("incident_summary.exception_group", 16);
        bounds.put("exception_group.exception_group", 16);
        bounds.put("notification_exception_group.exception_group", 16);

        Map<String, Integer> widths = new TreeMap<>();
        jdbc.query("SELECT table_name, column_name, character_maximum_length FROM information_schema.columns WHERE table_schema = DATABASE()"
                + " AND data_type IN ('varchar', 'char')", row -> {
            String table = row.getString(1).toLowerCase(java.util.Locale.ROOT);
            if (!NOT_OURS.contains(table)) {
                widths.put(table + "." + row.getString(2).toLowerCase(java.util.Locale.ROOT), row.getInt(3));
            }
        });
        // held elsewhere or made here: the event's type name, a dimension name, a job's answer, and names from configuration
        Map<String, Integer> internal = Map.of("incident_history.event_type", 64, "incident_count.dimension", 16, "replay_job_item.answer", 16,
                "replay_outbox.status", 16, "notification_delivery.status", 16, "notification_delivery.receiver", 64,
                "notification_delivery.notification_id", 200, "notification_ingest_stall.instance", 255, "admin_action.action", 32,
                "service_instance.instance_id", 255);
        Map<String, String> wrong = new TreeMap<>();
        widths.forEach((column, width) -> {
            Integer bound = bounds.getOrDefault(column, internal.get(column));
            if (bound == null) {
                wrong.put(column, "no bound is known for it (width " + width + "): add the domain bound of what it holds");
            } else if (width < bound) {
                wrong.put(column, "width " + width + " is below the bound " + bound + " of what it holds");
            }
        });
        assertThat(wrong).as("text columns and the bounds of the values they hold").isEmpty();
        assertThat(widths.keySet()).as("every bound names a column that exists").containsAll(bounds.keySet());
    }

    @Test
    void theLargestEventOfEveryTypeIsHandledByEveryProcessorWithoutOneParked() {
        CommandGateway commands = app.getBean(CommandGateway.class);
        OperatorAction largest = new OperatorAction(wide(OperatorAction.MAX_PRINCIPAL_LENGTH), wide(OperatorAction.MAX_REASON_LENGTH), NOW);
        String ledger = app.getEnvironment().getProperty("spring.application.name");

        // an incident of the widest failure: every text at its bound, in three-byte characters where it may be any
        FailedRecord root = widest("a", 7, null);
        IncidentId incident = IncidentId.forFailure(root);
        commands.sendAndWait(OpenIncidentCommand.forFailure(root, Duration.ofDays(7), NOW));
        commands.sendAndWait(OpenIncidentCommand.forFailure(new FailedRecord(root.failureKey(), new RecordLocation(topic("d"), 1, 8), root.key(),
                root.eventId(), root.originalTimestamp(), root.valueHash(), root.exception()), Duration.ofDays(7), NOW)); // a redelivery
        SourceRecordFacts asRecorded = SourceRecordFacts.found(root.failureKey().location(), root.failureKey().offset(), root.key(),
                root.eventId(), root.valueHash(), root.originalTimestamp()).withRetention(-1L);
        commands.sendAndWait(new RequestReplayCommand(incident, SourceRecordFacts.notFound(root.failureKey().location()), new ReplayPolicy(false, 1),
                false, ledger, largest)); // refused for many reasons
        commands.sendAndWait(new RequestReplayCommand(incident, asRecorded, new ReplayPolicy(true, 100), true, ledger, largest));
        commands.sendAndWait(new RecordPublishResultCommand(incident, 1, PublishResult.failed(wide(PublishResult.MAX_REASON_LENGTH), NOW,
                Long.MAX_VALUE)));
        commands.sendAndWait(new WaiveReplayConsumptionCommand(incident, 1, largest));
        commands.sendAndWait(new AcknowledgeIncidentCommand(incident, largest));
        commands.sendAndWait(new ResolveIncidentCommand(incident, largest));
        FailedRecord refailure = new FailedRecord(new FailureKey(root.failureKey().topic(), root.failureKey().partition(), 9,
                root.failureKey().consumerGroup()), new RecordLocation(topic("d"), 1, 9), root.key(), root.eventId(), root.originalTimestamp(),
                root.valueHash(), root.exception());
        commands.sendAndWait(new CorrelateRetryFailureCommand(incident, refailure, new ReplayHeaders(incident.value(), "1", ledger,
                root.failureKey().consumerGroup()), ledger, NOW)); // correlated, and reopened
        commands.sendAndWait(new RequestReplayCommand(incident, asRecorded, new ReplayPolicy(true, 100), true, ledger, largest));
        commands.sendAndWait(new MarkPublishUnknownCommand(incident, 2, true, largest, Long.MAX_VALUE));
        commands.sendAndWait(new AcknowledgeIncidentCommand(incident, largest));
        commands.sendAndWait(new DiscardIncidentCommand(incident, largest));

        // one whose location is unknown (keyed by its DLQ record), and an uncorrelated re-failure with every check failed
        FailedRecord unknownLocation = widest("b", 11, wide(FailedRecord.MAX_REASON_LENGTH));
        commands.sendAndWait(OpenIncidentCommand.forFailure(unknownLocation, Duration.ofDays(7), NOW));
        FailedRecord stray = widest("c", 13, null);
        commands.sendAndWait(OpenIncidentCommand.forUncorrelatedRetryFailure(stray, Duration.ofDays(7), NOW,
                Arrays.asList(CorrelationMismatch.values()), new ReplayHeaders(wide(ReplayHeaders.MAX_VALUE_LENGTH),
                        wide(ReplayHeaders.MAX_VALUE_LENGTH), wide(ReplayHeaders.MAX_VALUE_LENGTH), wide(ReplayHeaders.MAX_VALUE_LENGTH))));

        // a replay job over them, paused by an operator, and the announcements and actions about parked events
        ReplayJobId job = new ReplayJobId("job-" + "0123456789abcdef".repeat(2));
        commands.sendAndWait(new CreateReplayJobCommand(job, wide(3 * CreateReplayJobCommand.MAX_SELECTION_LENGTH),
                List.of(incident, IncidentId.forFailure(unknownLocation)), new ReplayJobLimits(ReplayJobLimits.MAX_RATE, 1000, 1, 0.5), largest));
        commands.sendAndWait(new PauseReplayJobCommand(job, largest));
        ParkedEvent parked = new ParkedEvent(wide(ParkedEvent.MAX_NAME_LENGTH), wide(ParkedEvent.MAX_NAME_LENGTH), wide(ParkedEvent.MAX_NAME_LENGTH),
                wide(4 * ParkedEvent.MAX_NAME_LENGTH));
        EventGateway events = app.getBean(EventGateway.class);
        events.publish(new EventParked(parked, wide(4 * EventParked.MAX_CAUSE_TYPE_LENGTH), wide(4 * EventParked.MAX_CAUSE_MESSAGE_LENGTH),
                Integer.MAX_VALUE, NOW));
        events.publish(new ParkedEventsRetried(wide(ParkedEvent.MAX_NAME_LENGTH), wide(ParkedEvent.MAX_NAME_LENGTH), Integer.MAX_VALUE,
                Integer.MAX_VALUE, largest));
        events.publish(new ParkedEventEvicted(parked, largest));

        long head = jdbc.queryForObject("SELECT MAX(global_index) FROM domain_event_entry", Long.class);
        EventProcessingConfiguration processing = app.getBean(EventProcessingConfiguration.class);
        await().atMost(WAIT).untilAsserted(() -> {
            Map<String, Long> behind = new TreeMap<>();
            processing.eventProcessors().forEach((name, processor) -> {
                if (processor instanceof StreamingEventProcessor streaming) {
                    long lowest = streaming.processingStatus().values().stream()
                            .mapToLong(status -> status.getCurrentPosition().orElse(-1)).min().orElse(-1);
                    if (lowest < head) {
                        behind.put(name, lowest);
                    }
                }
            });
            assertThat(behind).as("processors behind the head " + head).isEmpty();
        });
        assertThat(jdbc.queryForList("SELECT CONCAT(processing_group, ': ', payload_type, ': ', COALESCE(cause_message, '')) FROM parked_event",
                String.class)).as("nothing parked").isEmpty();
        assertThat(jdbc.queryForObject("SELECT status FROM incident_summary WHERE incident_id = ?", String.class, incident.value()))
                .isEqualTo("DISCARDED");
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM incident_summary WHERE incident_id IN (?, ?)", Integer.class,
                IncidentId.forFailure(unknownLocation).value(), IncidentId.forFailure(stray).value())).isEqualTo(2);
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM incident_history WHERE incident_id = ?", Integer.class, incident.value()))
                .as("a history row for every event of the incident").isEqualTo(jdbc.queryForObject(
                        "SELECT COUNT(*) FROM domain_event_entry WHERE aggregate_identifier = ?", Integer.class, incident.value()))
                .isGreaterThanOrEqualTo(14);
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM replay_attempt WHERE incident_id = ? AND waived_at IS NOT NULL", Integer.class,
                incident.value())).isEqualTo(1);
        assertThat(jdbc.queryForObject("SELECT CHAR_LENGTH(selection) FROM replay_job WHERE job_id = ?", Integer.class, job.value()))
                .isEqualTo(CreateReplayJobCommand.MAX_SELECTION_LENGTH);
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM admin_action WHERE reason = ?", Integer.class, largest.reason())).isEqualTo(2);
    }

    /** A first failure with every value at its bound; {@code locationUnknown} keys it by its DLQ record. */
    private static FailedRecord widest(String name, long offset, String locationUnknown) {
        String group = wide(FailureKey.MAX_GROUP_LENGTH);
        RecordLocation dlq = new RecordLocation(topic(name + "d"), Integer.MAX_VALUE, Long.MAX_VALUE - offset);
        RecordKey key = RecordKey.of(new byte[RecordKey.MAX_BYTES]);
        EventId eventId = new EventId(wide(EventId.MAX_LENGTH));
        OriginalTimestamp timestamp = OriginalTimestamp.ofEpochMilliWithUnknownType(NOW.toEpochMilli(), wide(OriginalTimestamp.MAX_RAW_TYPE_LENGTH));
        PayloadHash hash = PayloadHash.of(new byte[] {(byte) offset});
        ExceptionSummary exception = ExceptionSummary.ofMessageBytes(wide(ExceptionSummary.MAX_CLASS_LENGTH),
                wide(10 * ExceptionSummary.MAX_MESSAGE_LENGTH).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        if (locationUnknown != null) {
            return FailedRecord.withUnknownLocation(group, dlq, key, eventId, timestamp, hash, exception, locationUnknown);
        }
        return new FailedRecord(new FailureKey(topic(name), Integer.MAX_VALUE, Long.MAX_VALUE - offset, group), dlq, key, eventId, timestamp, hash,
                exception);
    }

    /** A legal topic name of the most characters Kafka allows, unique to {@code name}. */
    private static String topic(String name) {
        return (name + "-" + "t".repeat(RecordLocation.MAX_TOPIC_LENGTH)).substring(0, RecordLocation.MAX_TOPIC_LENGTH);
    }

    private static String wide(int length) {
        return String.valueOf(WIDE).repeat(length);
    }

    private static int longest(Enum<?>[] values) {
        return Stream.of(values).mapToInt(value -> value.name().length()).max().orElseThrow();
    }
}

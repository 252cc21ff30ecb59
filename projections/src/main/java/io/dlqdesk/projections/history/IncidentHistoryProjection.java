package io.dlqdesk.projections.history;

import io.dlqdesk.domain.api.DuplicateDeliveryRecorded;
import io.dlqdesk.domain.api.IncidentAcknowledged;
import io.dlqdesk.domain.api.IncidentDiscarded;
import io.dlqdesk.domain.api.IncidentOpened;
import io.dlqdesk.domain.api.IncidentReopened;
import io.dlqdesk.domain.api.IncidentResolved;
import io.dlqdesk.domain.api.PublishMarkedUnknown;
import io.dlqdesk.domain.api.PublishResultRecorded;
import io.dlqdesk.domain.api.ReplayConsumptionWaived;
import io.dlqdesk.domain.api.ReplayEditApproved;
import io.dlqdesk.domain.api.ReplayEditProposed;
import io.dlqdesk.domain.api.ReplayJobApproved;
import io.dlqdesk.domain.api.ReplayJobCancelled;
import io.dlqdesk.domain.api.ReplayJobCompleted;
import io.dlqdesk.domain.api.ReplayJobCreated;
import io.dlqdesk.domain.api.ReplayJobPaused;
import io.dlqdesk.domain.api.ReplayJobResumed;
import io.dlqdesk.domain.api.ReplayRejected;
import io.dlqdesk.domain.api.ReplayRequested;
import io.dlqdesk.domain.api.RetryFailureCorrelated;
import io.dlqdesk.domain.correlation.CorrelationMismatch;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.OperatorAction;
import io.dlqdesk.domain.parked.ParkedEvent;
import io.dlqdesk.domain.parked.ParkedEventEvicted;
import io.dlqdesk.domain.parked.ParkedEventsRetried;
import io.dlqdesk.domain.rebuild.ReadModelRebuildCancelled;
import io.dlqdesk.domain.rebuild.ReadModelRebuildRequested;
import io.dlqdesk.domain.record.BoundedText;
import io.dlqdesk.domain.record.RecordLocation;
import io.dlqdesk.domain.replay.KeyFreshness;
import io.dlqdesk.domain.replay.PublishResult;
import io.dlqdesk.domain.replay.PublishStatus;
import io.dlqdesk.projections.PendingWrites;
import io.dlqdesk.projections.edit.FindReplayEditsQuery;
import io.dlqdesk.projections.edit.ReplayEditRows;
import io.dlqdesk.projections.edit.ReplayEditView;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventhandling.ResetHandler;
import org.axonframework.eventhandling.SequenceNumber;
import org.axonframework.eventhandling.Timestamp;
import org.axonframework.messaging.annotation.MessageIdentifier;
import org.axonframework.queryhandling.QueryHandler;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import static io.dlqdesk.projections.history.HistoryRows.failure;
import static io.dlqdesk.projections.history.HistoryRows.location;

/**
 * Every change of every incident, in order, with who did it and why: the incident history and the
 * audit trail. One row per event, keyed by (incident, sequence number), so a replayed event writes
 * nothing new and a rebuild produces the same rows. Times are when the event was recorded. A batch of events is
 * one multi-row insert. An incident's duplicate deliveries are the exception: one row, at the first one's place, counts
 * them all and names the last one's DLQ record (a producer can send the same record without end; its history stays one
 * row). Its {@code last_seq} is the last event counted, so an event handled again counts nothing.
 */
@Component
@ProcessingGroup(IncidentHistoryProjection.PROCESSING_GROUP)
public class IncidentHistoryProjection {

    /** Explicit, so that moving this class never resets its token. */
    public static final String PROCESSING_GROUP = "incident-history";
    public static final int MAX_DETAIL = HistoryRows.MAX_DETAIL;

    private final JdbcTemplate jdbc;
    /** A batch's rows, inserted in one statement when it commits (an event handled again adds nothing). */
    private final PendingWrites<List<Object[]>> pending;

    /** Over the tables {@code jdbc} reaches: the live ones, or a bulk rebuild's. */
    public IncidentHistoryProjection(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
        this.pending = new PendingWrites<>(PROCESSING_GROUP, jdbc.getDataSource(), ArrayList::new,
                rows -> HistoryRows.write(jdbc, rows));
    }

    @EventHandler
    void on(IncidentOpened event, @SequenceNumber long seq, @Timestamp Instant at) {
        String detail = failure(event.failure());
        if (!event.correlationMismatches().isEmpty()) {
            detail += event.correlationMismatches().contains(CorrelationMismatch.FAILURE_KEY_TAKEN)
                    ? "; its failure key is taken by another record, so it is keyed by its DLQ record: " + event.correlationMismatches()
                    : "; a re-failure that did not correlate: " + event.correlationMismatches();
        }
        failureRow(event.incidentId(), seq, "IncidentOpened", at, null, detail, event.failure().dlqLocation());
    }

    @EventHandler
    void on(DuplicateDeliveryRecorded event, @SequenceNumber long seq, @Timestamp Instant at) {
        row(event.incidentId().value(), seq, "DuplicateDeliveryRecorded", at, null, null, null, "the same failure of "
                + location(event.failureKey().topic(), event.failureKey().partition(), event.failureKey().offset())
                + " delivered again (DLQ " + location(event.dlqLocation().topic(), event.dlqLocation().partition(),
                event.dlqLocation().offset()) + ")", event.dlqLocation(), HistoryRows.DUPLICATES);
    }

    @EventHandler
    void on(RetryFailureCorrelated event, @SequenceNumber long seq, @Timestamp Instant at) {
        String skipped = event.skippedChecks().stream().map(check -> "; check " + check.check() + " skipped: " + check.reason())
                .collect(java.util.stream.Collectors.joining());
        failureRow(event.incidentId(), seq, "RetryFailureCorrelated", at, event.attempt(), "failed again after replay attempt "
                + event.attempt() + skipped + ": " + failure(event.failure()), event.failure().dlqLocation());
    }

    @EventHandler
    void on(IncidentReopened event, @SequenceNumber long seq, @Timestamp Instant at) {
        row(event.incidentId(), seq, "IncidentReopened", at, null, null, "was " + event.previousStatus() + ", reopened by "
                + location(event.reopenedBy().topic(), event.reopenedBy().partition(), event.reopenedBy().offset()));
    }

    @EventHandler
    void on(ReplayRequested event, @SequenceNumber long seq, @Timestamp Instant at) {
        row(event.incidentId(), seq, "ReplayRequested", at, event.requestedBy(), event.attempt(), PublishStatus.REQUESTED, "to "
                + location(event.sourceLocation().topic(), event.sourceLocation().partition(), event.sourceLocation().offset())
                + " for group " + event.targetGroup() + (event.edit() == null ? "" : "; publishes approved edit " + event.edit().number()
                + " (value SHA-256 " + event.edit().valueHash().hex() + ")") + (event.staleKeyOverridden() ? "; replayed over " + freshness(event.keyFreshness())
                + " (the stale-key check overridden)" : ""));
    }

    /** An edit is in the history with who and why, and in {@code replay_edit} with its full diff. */
    @EventHandler
    void on(ReplayEditProposed event, @SequenceNumber long seq, @Timestamp Instant at) {
        ReplayEditRows.proposed(jdbc, event);
        row(event.incidentId(), seq, "ReplayEditProposed", at, event.proposedBy(), null, "edit " + event.edit() + " proposed: "
                + event.diff().value().size() + " change(s) of the value (" + event.diff().valueKind() + "), " + event.diff().headers().size()
                + " of the headers; edited value SHA-256 " + event.editedValueHash().hex() + "; AWAITING_APPROVAL by a second person");
    }

    @EventHandler
    void on(ReplayEditApproved event, @SequenceNumber long seq, @Timestamp Instant at) {
        ReplayEditRows.approved(jdbc, event);
        row(event.incidentId(), seq, "ReplayEditApproved", at, event.approvedBy(), null, "edit " + event.edit()
                + " approved (four-eyes): a replay may publish it");
    }

    @QueryHandler
    List<ReplayEditView> handle(FindReplayEditsQuery query) {
        return ReplayEditRows.of(jdbc, query.incidentId());
    }

    @EventHandler
    void on(ReplayRejected event, @SequenceNumber long seq, @Timestamp Instant at) {
        row(event.incidentId(), seq, "ReplayRejected", at, event.requestedBy(), null, "refused: " + event.reasons()
                + (event.keyFreshness() == null || event.keyFreshness().state() == KeyFreshness.State.FRESH ? ""
                : "; stale-key check: " + freshness(event.keyFreshness())));
    }

    /** What the stale-key check found, in words: the newer offset, or why it could not tell. */
    private static String freshness(KeyFreshness freshness) {
        if (freshness == null) {
            return "a stale key";
        }
        return switch (freshness.state()) {
            case STALE -> "a newer record with the same key at offset " + freshness.newerOffset() + ", already processed by the group";
            case UNKNOWN -> "a stale-key check that could not tell (" + freshness.detail() + ")";
            default -> freshness.state().name();
        };
    }

    @EventHandler
    void on(PublishResultRecorded event, @SequenceNumber long seq, @Timestamp Instant at) {
        PublishResult result = event.result();
        String detail = result.publishedAt() != null
                ? "PUBLISHED at " + location(result.publishedAt().topic(), result.publishedAt().partition(), result.publishedAt().offset())
                : "PUBLISH_FAILED: " + result.failureReason();
        row(event.incidentId(), seq, "PublishResultRecorded", at, null, event.attempt(), result.status(),
                detail + " (decided " + result.decidedAt() + ")");
    }

    @EventHandler
    void on(PublishMarkedUnknown event, @SequenceNumber long seq, @Timestamp Instant at) {
        row(event.incidentId(), seq, "PublishMarkedUnknown", at, event.markedBy(), event.attempt(), PublishStatus.PUBLISH_UNKNOWN,
                "PUBLISH_UNKNOWN");
    }

    @EventHandler
    void on(ReplayConsumptionWaived event, @SequenceNumber long seq, @Timestamp Instant at) {
        row(event.incidentId(), seq, "ReplayConsumptionWaived", at, event.waivedBy(), event.attempt(),
                "the rollback check no longer waits for attempt " + event.attempt() + " to be consumed");
    }

    @EventHandler
    void on(IncidentAcknowledged event, @SequenceNumber long seq, @Timestamp Instant at) {
        row(event.incidentId(), seq, "IncidentAcknowledged", at, event.action(), null, "ACKED");
    }

    @EventHandler
    void on(IncidentResolved event, @SequenceNumber long seq, @Timestamp Instant at) {
        row(event.incidentId(), seq, "IncidentResolved", at, event.action(), null, "RESOLVED");
    }

    @EventHandler
    void on(IncidentDiscarded event, @SequenceNumber long seq, @Timestamp Instant at) {
        row(event.incidentId(), seq, "IncidentDiscarded", at, event.action(), null, "DISCARDED");
    }

    /** Replay jobs are in the audit trail too, under the job's id (as long as an incident id), with who and why. */
    @EventHandler
    void on(ReplayJobCreated event, @SequenceNumber long seq, @Timestamp Instant at) {
        row(event.jobId().value(), seq, "ReplayJobCreated", at, event.createdBy(), null, null, "replay job of " + event.selected()
                + " incident(s) selected by " + event.selection() + "; " + event.limits().ratePerSecond() + "/s, at most "
                + event.limits().maxInFlight() + " in flight" + (event.limits().canary() == null ? "" : ", canary " + event.limits().canary())
                + (event.limits().maxRefailureRate() == null ? "" : ", max re-failure rate " + event.limits().maxRefailureRate())
                + (event.awaitingApproval() ? "; AWAITING_APPROVAL: a second person approves it (four-eyes)" : ""));
    }

    @EventHandler
    void on(ReplayJobApproved event, @SequenceNumber long seq, @Timestamp Instant at) {
        row(event.jobId().value(), seq, "ReplayJobApproved", at, event.by(), null, null, "approved (four-eyes): RUNNING");
    }

    @EventHandler
    void on(ReplayJobPaused event, @SequenceNumber long seq, @Timestamp Instant at) {
        row(event.jobId().value(), seq, "ReplayJobPaused", at, event.by(), null, null, "PAUSED (" + event.reason() + ")");
    }

    @EventHandler
    void on(ReplayJobResumed event, @SequenceNumber long seq, @Timestamp Instant at) {
        row(event.jobId().value(), seq, "ReplayJobResumed", at, event.by(), null, null, "RUNNING");
    }

    @EventHandler
    void on(ReplayJobCancelled event, @SequenceNumber long seq, @Timestamp Instant at) {
        row(event.jobId().value(), seq, "ReplayJobCancelled", at, event.by(), null, null, "CANCELLED: nothing more is requested");
    }

    @EventHandler
    void on(ReplayJobCompleted event, @SequenceNumber long seq, @Timestamp Instant at) {
        row(event.jobId().value(), seq, "ReplayJobCompleted", at, null, null, null, "COMPLETED: every selected incident was asked");
    }

    /** Admins' actions on parked events and on the read models join the audit trail; they belong to no incident's history. */
    @EventHandler
    void on(ParkedEventsRetried event, @MessageIdentifier String eventId, @Timestamp Instant at) {
        String which = event.sequenceIdentifier() == null ? "every parked sequence" : "parked sequence " + event.sequenceIdentifier();
        adminAction(eventId, "ParkedEventsRetried", at, event.by(), event.processingGroup(), event.sequenceIdentifier(),
                "retried " + which + " of " + event.processingGroup() + ": " + event.applied() + " applied, " + event.stillParked()
                        + " still parked");
    }

    @EventHandler
    void on(ParkedEventEvicted event, @MessageIdentifier String eventId, @Timestamp Instant at) {
        ParkedEvent parked = event.event();
        adminAction(eventId, "ParkedEventEvicted", at, event.by(), parked.processingGroup(), parked.sequenceIdentifier(),
                "evicted " + parked.eventType() + " " + parked.eventIdentifier() + " of sequence " + parked.sequenceIdentifier() + " from "
                        + parked.processingGroup() + ": it is never applied there");
    }

    @EventHandler
    void on(ReadModelRebuildRequested event, @MessageIdentifier String eventId, @Timestamp Instant at) {
        adminAction(eventId, "ReadModelRebuildRequested", at, event.by(), event.processor(), null,
                "bulk rebuild " + event.rebuildId() + " of the read models of " + event.processor() + " requested");
    }

    @EventHandler
    void on(ReadModelRebuildCancelled event, @MessageIdentifier String eventId, @Timestamp Instant at) {
        adminAction(eventId, "ReadModelRebuildCancelled", at, event.by(), event.processor(), null,
                "bulk rebuild " + event.rebuildId() + " of the read models of " + event.processor() + " cancelled before its swap");
    }

    private void adminAction(String eventId, String action, Instant at, OperatorAction by, String group, String sequence, String detail) {
        jdbc.update("INSERT INTO admin_action (event_id, action, occurred_at, principal, reason, processing_group, sequence_identifier,"
                        + " detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON DUPLICATE KEY UPDATE event_id = event_id", eventId, action,
                LocalDateTime.ofInstant(at, ZoneOffset.UTC), by.principal(), by.reason(), group, sequence, BoundedText.truncate(detail, 1000));
    }

    @QueryHandler
    List<HistoryEntry> handle(FindIncidentHistoryQuery query) {
        return jdbc.query("SELECT " + HistoryRows.COLUMNS + " FROM incident_history WHERE incident_id = ? ORDER BY seq",
                HistoryRows::entry, query.incidentId().value());
    }

    /** The incidents' and jobs' operator actions, and admins' actions on parked events (under their sequence, as sequence 0). */
    @QueryHandler
    AuditPage handle(ListAuditQuery query) {
        StringBuilder where = new StringBuilder(" WHERE principal IS NOT NULL");
        List<Object> arguments = new ArrayList<>();
        if (query.principal() != null) {
            where.append(" AND principal = ?");
            arguments.add(query.principal());
        }
        if (query.from() != null) {
            where.append(" AND occurred_at >= ?");
            arguments.add(LocalDateTime.ofInstant(query.from(), ZoneOffset.UTC));
        }
        if (query.to() != null) {
            where.append(" AND occurred_at < ?");
            arguments.add(LocalDateTime.ofInstant(query.to(), ZoneOffset.UTC));
        }
        List<Object> both = new ArrayList<>(arguments);
        both.addAll(arguments);
        Long total = jdbc.queryForObject("SELECT (SELECT COUNT(*) FROM incident_history" + where + ") + (SELECT COUNT(*) FROM admin_action"
                + where + ")", Long.class, both.toArray());
        List<Object> paged = new ArrayList<>(both);
        paged.add(query.size());
        paged.add((long) query.page() * query.size());
        List<HistoryEntry> items = jdbc.query("SELECT " + HistoryRows.COLUMNS + " FROM incident_history" + where + " UNION ALL SELECT "
                + HistoryRows.ADMIN_ACTION_AS_HISTORY + " FROM admin_action" + where
                + " ORDER BY occurred_at DESC, incident_id, seq LIMIT ? OFFSET ?", HistoryRows::entry, paged.toArray());
        return new AuditPage(items, query.page(), query.size(), total == null ? 0 : total);
    }

    /** Along the time index: the rows since the instant, whatever the history before it holds. */
    @QueryHandler
    ReopenedIncidents handle(ListReopenedQuery query) {
        LocalDateTime since = LocalDateTime.ofInstant(query.since(), ZoneOffset.UTC);
        Long total = jdbc.queryForObject("SELECT COUNT(*) FROM incident_history WHERE occurred_at >= ? AND event_type = 'IncidentReopened'",
                Long.class, since);
        List<HistoryEntry> newest = jdbc.query("SELECT " + HistoryRows.COLUMNS + " FROM incident_history WHERE occurred_at >= ?"
                        + " AND event_type = 'IncidentReopened' ORDER BY occurred_at DESC, incident_id, seq LIMIT ?",
                HistoryRows::entry, since, query.size());
        return new ReopenedIncidents(total == null ? 0 : total, newest);
    }

    @ResetHandler
    void reset() {
        pending.discard();
        jdbc.update("DELETE FROM incident_history");
        jdbc.update("DELETE FROM admin_action");
        jdbc.update("DELETE FROM replay_edit");
    }

    private void row(IncidentId incidentId, long seq, String type, Instant at, OperatorAction action, Integer attempt, String detail) {
        row(incidentId, seq, type, at, action, attempt, null, detail);
    }

    private void row(IncidentId incidentId, long seq, String type, Instant at, OperatorAction action, Integer attempt,
                     PublishStatus publishStatus, String detail) {
        row(incidentId.value(), seq, type, at, action, attempt, publishStatus, detail);
    }

    /** A failure's row: it also keeps where its own DLQ record is, so that record (its stack trace too) can be read again. */
    private void failureRow(IncidentId incidentId, long seq, String type, Instant at, Integer attempt, String detail, RecordLocation dlq) {
        row(incidentId.value(), seq, type, at, null, attempt, null, detail, dlq);
    }

    /** {@code id}: the incident's, or the replay job's. */
    private void row(String id, long seq, String type, Instant at, OperatorAction action, Integer attempt,
                     PublishStatus publishStatus, String detail) {
        row(id, seq, type, at, action, attempt, publishStatus, detail, null);
    }

    private void row(String id, long seq, String type, Instant at, OperatorAction action, Integer attempt,
                     PublishStatus publishStatus, String detail, RecordLocation dlq) {
        row(id, seq, type, at, action, attempt, publishStatus, detail, dlq, null);
    }

    /** {@code collapsed}: null, or the kind of row of which the incident has one ({@link HistoryRows#DUPLICATES}). */
    private void row(String id, long seq, String type, Instant at, OperatorAction action, Integer attempt,
                     PublishStatus publishStatus, String detail, RecordLocation dlq, Integer collapsed) {
        Object[] row = HistoryRows.row(id, seq, type, at, action, attempt, publishStatus, detail, dlq, collapsed);
        pending.record(rows -> rows.add(row));
    }
}

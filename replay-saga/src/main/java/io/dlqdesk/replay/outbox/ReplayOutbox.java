package io.dlqdesk.replay.outbox;

import io.dlqdesk.domain.api.ReplayRequested;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.record.BoundedText;
import io.dlqdesk.domain.record.PayloadHash;
import io.dlqdesk.domain.record.RecordKey;
import io.dlqdesk.domain.record.RecordLocation;
import io.dlqdesk.domain.replay.PublishResult;
import org.springframework.jdbc.core.JdbcTemplate;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;

/**
 * The replay outbox table. Every time it stores or compares is the database's clock (UTC), so
 * instances with skewed clocks agree on what is due and when a result was decided.
 */
public class ReplayOutbox {

    private static final String COLUMNS = "replay_id, incident_id, attempt, source_topic, source_partition, source_offset, record_key, "
            + "value_hash, target_group, owner, status, tries, last_error, published_partition, published_offset, decided_at, end_offset_at_decision, "
            + "edit_content_hash";

    private final JdbcTemplate jdbc;

    public ReplayOutbox(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Idempotent: the saga may handle the same event again after a crash; the first row stays as it is. */
    public void add(ReplayRequested event) {
        RecordLocation source = event.sourceLocation();
        jdbc.update("INSERT INTO replay_outbox (" + "replay_id, incident_id, attempt, source_topic, source_partition, source_offset, "
                        + "record_key, value_hash, target_group, owner, status, tries, next_try_at, created_at, replay_deadline, edit_content_hash) "
                        + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'PENDING', 0, UTC_TIMESTAMP(6), UTC_TIMESTAMP(6), ?, ?) "
                        + "ON DUPLICATE KEY UPDATE replay_id = replay_id",
                event.replayId(), event.incidentId().value(), event.attempt(), source.topic(), source.partition(), source.offset(),
                event.key().bytes(), event.valueHash().hex(), event.targetGroup(), event.owner(),
                event.replayDeadline() == null ? null : LocalDateTime.ofInstant(event.replayDeadline(), ZoneOffset.UTC),
                event.edit() == null ? null : event.edit().contentHash().hex());
    }

    /**
     * The saga's backstop write: only when the row is not there, looked up with a plain (non-locking) read first.
     * The saga handles committed events, so a row written with the request is already visible. Inserting over it
     * would lock it until the saga's batch commits: the poller's claim skips a locked row, and a row a poller
     * round holds would make the saga's batch wait for that round's sends.
     */
    public void addUnlessPresent(ReplayRequested event) {
        if (find(event.replayId()).isEmpty()) {
            add(event); // still idempotent: a placeholder an admin takes meanwhile stays
        }
    }

    /**
     * Takes the attempt's row for good when it does not exist yet (an ABANDONED placeholder), so that a
     * saga that writes it later finds it taken and nothing is published. True when this call took it, or when a
     * placeholder is there already: nothing is ever published from one, so the row is as absent as it can be (a mark
     * interrupted before the incident recorded it, before the two were one transaction, left one behind).
     */
    public boolean abandonIfAbsent(IncidentId incidentId, int attempt) {
        // INSERT IGNORE, not ON DUPLICATE KEY: the driver reports found rows, so only IGNORE's 0 tells "was there"
        boolean taken = jdbc.update("INSERT IGNORE INTO replay_outbox (replay_id, incident_id, attempt, source_topic, source_partition, "
                + "source_offset, value_hash, target_group, owner, status, tries, next_try_at, created_at) "
                + "VALUES (?, ?, ?, '-', 0, 0, REPEAT('0', 64), '-', '-', 'ABANDONED', 0, UTC_TIMESTAMP(6), UTC_TIMESTAMP(6))",
                incidentId.replayId(attempt), incidentId.value(), attempt) == 1;
        return taken || find(incidentId.replayId(attempt)).map(row -> row.status() == OutboxRow.Status.ABANDONED).orElse(false);
    }

    public Optional<OutboxRow> find(String replayId) {
        return jdbc.query("SELECT " + COLUMNS + " FROM replay_outbox WHERE replay_id = ?", ReplayOutbox::row, replayId).stream().findFirst();
    }

    /**
     * Locks up to {@code limit} due PENDING rows for the caller's transaction, oldest due first, each with whether
     * its replay deadline has passed by the database clock (a row without one has: fail closed). Rows other
     * instances hold are skipped, never waited for. The caller decides them (or defers them) before committing.
     */
    public List<ClaimedRow> claimDue(int limit) {
        return jdbc.query("SELECT " + COLUMNS + ", replay_deadline IS NULL OR replay_deadline <= UTC_TIMESTAMP(6) AS past_deadline "
                + "FROM replay_outbox WHERE status = 'PENDING' AND next_try_at <= UTC_TIMESTAMP(6) "
                + "ORDER BY next_try_at LIMIT ? FOR UPDATE SKIP LOCKED",
                (result, number) -> new ClaimedRow(row(result, number), result.getBoolean("past_deadline")), limit);
    }

    /**
     * Locks up to {@code limit} PENDING rows whose replay deadline has passed by the database clock (or that have none),
     * due or not: with the switch off nothing is sent, but these can only ever be FAILED, and an attempt left waiting for
     * them would hold the rollback check for ever.
     */
    public List<ClaimedRow> claimPastDeadline(int limit) {
        return jdbc.query("SELECT " + COLUMNS + ", TRUE AS past_deadline FROM replay_outbox WHERE status = 'PENDING' "
                        + "AND (replay_deadline IS NULL OR replay_deadline <= UTC_TIMESTAMP(6)) ORDER BY replay_deadline LIMIT ? FOR UPDATE SKIP LOCKED",
                (result, number) -> new ClaimedRow(row(result, number), true), limit);
    }

    /** Now by the database clock: the decision time of a round, so every instance stamps decisions by one clock. */
    public Instant decisionTime() {
        LocalDateTime now = jdbc.queryForObject("SELECT UTC_TIMESTAMP(6)", LocalDateTime.class);
        return now.toInstant(ZoneOffset.UTC);
    }

    /**
     * Writes a round's decisions about rows it claimed, as one JDBC batch (update counts are not read: the
     * driver may rewrite the batch and report none; the claim's locks keep the rows PENDING until then).
     */
    public void record(List<RowDecision> decisions, Instant decidedAt) {
        LocalDateTime decided = LocalDateTime.ofInstant(decidedAt, ZoneOffset.UTC);
        jdbc.batchUpdate("UPDATE replay_outbox SET status = ?, tries = tries + 1, last_error = ?, published_partition = ?, "
                + "published_offset = ?, decided_at = ?, end_offset_at_decision = ?, next_try_at = COALESCE(?, next_try_at) "
                + "WHERE replay_id = ? AND status = 'PENDING'", decisions.stream().map(decision -> columns(decision, decided)).toList());
    }

    /** The batch update's parameters for one decision: a deferred row stays PENDING, undecided, due again later. */
    private static Object[] columns(RowDecision decision, LocalDateTime decided) {
        String replayId = decision.row().replayId();
        if (decision instanceof RowDecision.Sent sent) {
            return new Object[] {OutboxRow.Status.SENT.name(), null, sent.at().partition(), sent.at().offset(), decided, null, null,
                    replayId};
        }
        if (decision instanceof RowDecision.Failed failed) {
            return new Object[] {OutboxRow.Status.FAILED.name(), failed.reason(), null, null, decided, failed.endOffsetAtDecision(), null,
                    replayId};
        }
        RowDecision.Deferred deferred = (RowDecision.Deferred) decision;
        return new Object[] {OutboxRow.Status.PENDING.name(), deferred.reason(), null, null, null, null,
                decided.plusNanos(deferred.retryAfter().toNanos() / 1_000 * 1_000), replayId};
    }

    /** Marks a claimed row SENT; returns the result with the decision time from the database clock. */
    public PublishResult markSent(String replayId, RecordLocation publishedAt) {
        jdbc.update("UPDATE replay_outbox SET status = 'SENT', tries = tries + 1, last_error = NULL, published_partition = ?, "
                + "published_offset = ?, decided_at = UTC_TIMESTAMP(6) WHERE replay_id = ? AND status = 'PENDING'",
                publishedAt.partition(), publishedAt.offset(), replayId);
        return decided(replayId);
    }

    /** Rows not decided yet (rollback readiness and metrics). */
    public long pendingCount() {
        Long count = jdbc.queryForObject("SELECT COUNT(*) FROM replay_outbox WHERE status = 'PENDING'", Long.class);
        return count == null ? 0 : count;
    }

    private PublishResult decided(String replayId) {
        return find(replayId).flatMap(OutboxRow::result)
                .orElseThrow(() -> new IllegalStateException("outbox row " + replayId + " was not PENDING when it was decided"));
    }

    /** A failure reason as the row stores (and later returns) it. */
    static String reasonAsStored(String reason) {
        return truncate(reason);
    }

    private static String truncate(String reason) {
        String text = reason == null || reason.isBlank() ? "unknown error" : reason;
        return BoundedText.prefix(text, PublishResult.MAX_REASON_LENGTH);
    }

    private static OutboxRow row(ResultSet row, int number) throws SQLException {
        String topic = row.getString("source_topic");
        int publishedPartition = row.getInt("published_partition");
        RecordLocation publishedAt = row.wasNull() ? null : new RecordLocation(topic, publishedPartition, row.getLong("published_offset"));
        LocalDateTime decidedAt = row.getObject("decided_at", LocalDateTime.class);
        String editContentHash = row.getString("edit_content_hash");
        return new OutboxRow(row.getString("replay_id"), IncidentId.parse(row.getString("incident_id")), row.getInt("attempt"),
                new RecordLocation(topic, row.getInt("source_partition"), row.getLong("source_offset")),
                RecordKey.of(row.getBytes("record_key")), new PayloadHash(row.getString("value_hash")), row.getString("target_group"),
                row.getString("owner"), OutboxRow.Status.valueOf(row.getString("status")), row.getInt("tries"), row.getString("last_error"),
                publishedAt, decidedAt == null ? null : decidedAt.toInstant(ZoneOffset.UTC), row.getObject("end_offset_at_decision", Long.class),
                editContentHash == null ? null : new PayloadHash(editContentHash));
    }
}

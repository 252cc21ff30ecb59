package io.dlqdesk.rebuild;

import org.springframework.jdbc.core.JdbcTemplate;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;

/**
 * The {@code read_model_rebuild} rows. Every change a run makes names the phase it believes it is in, so a run whose row
 * was cancelled (or failed by a recovery) learns it from the next change: zero rows updated.
 */
final class RebuildRows {

    private static final String COLUMNS = "rebuild_id, processor, phase, requested_by, reason, requested_at, phase_at, heartbeat_at,"
            + " ended_at, owner, events_read, events_estimated, rows_written, parked_events, cancelled_by, failure";
    private static final String RUNNING = "phase NOT IN ('COMPLETED', 'CANCELLED', 'FAILED')";

    private final JdbcTemplate jdbc;
    private final Clock clock;

    RebuildRows(JdbcTemplate jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    /** Holds the one running slot: a second running rebuild is refused by the unique key, whichever instance asks. */
    void insert(String id, String processor, String by, String reason, String owner) {
        LocalDateTime now = now();
        jdbc.update("INSERT INTO read_model_rebuild (rebuild_id, processor, phase, requested_by, reason, requested_at, phase_at,"
                + " heartbeat_at, owner, running_slot) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1)", id, processor, RebuildPhase.PREPARING.name(), by, reason, now, now,
                now, owner);
    }

    /** Moves a running rebuild from {@code from} to {@code to}; throws {@link RebuildCancelled} when it no longer is in {@code from}. */
    void phase(String id, RebuildPhase from, RebuildPhase to) {
        LocalDateTime now = now();
        int updated = jdbc.update("UPDATE read_model_rebuild SET phase = ?, phase_at = ?, heartbeat_at = ?, ended_at = ?, running_slot = ?"
                + " WHERE rebuild_id = ? AND phase = ?", to.name(), now, now, to.ended() ? now : null, to.ended() ? null : 1, id, from.name());
        requireRunning(id, updated);
    }

    void progress(String id, RebuildPhase phase, long eventsRead, long eventsEstimated, long rowsWritten, int parked) {
        int updated = jdbc.update("UPDATE read_model_rebuild SET events_read = ?, events_estimated = ?, rows_written = ?, parked_events = ?,"
                + " heartbeat_at = ? WHERE rebuild_id = ? AND phase = ?", eventsRead, eventsEstimated, rowsWritten, parked, now(), id, phase.name());
        requireRunning(id, updated);
    }

    void swapping(String id, byte[] swapToken) {
        LocalDateTime now = now();
        int updated = jdbc.update("UPDATE read_model_rebuild SET phase = 'SWAPPING', phase_at = ?, heartbeat_at = ?, swap_token = ?"
                + " WHERE rebuild_id = ? AND phase = 'CATCHING_UP'", now, now, swapToken, id);
        requireRunning(id, updated);
    }

    /** SWAPPING to COMPLETED; nothing when another finished it already. */
    void completeSwap(String id) {
        LocalDateTime now = now();
        jdbc.update("UPDATE read_model_rebuild SET phase = 'COMPLETED', phase_at = ?, ended_at = ?, running_slot = NULL WHERE rebuild_id = ?"
                + " AND phase = 'SWAPPING'", now, now, id);
    }

    void heartbeat(String owner) {
        jdbc.update("UPDATE read_model_rebuild SET heartbeat_at = ? WHERE owner = ? AND " + RUNNING, now(), owner);
    }

    /** Ends a rebuild that still runs; false when it had ended already. */
    boolean end(String id, RebuildPhase end, String failure) {
        LocalDateTime now = now();
        return jdbc.update("UPDATE read_model_rebuild SET phase = ?, phase_at = ?, ended_at = ?, failure = ?, running_slot = NULL"
                + " WHERE rebuild_id = ? AND " + RUNNING,
                end.name(), now, now, failure == null ? null : cut(failure), id) == 1;
    }

    /** Cancels one that has not begun its swap; false when it is swapping or has ended. */
    boolean cancel(String id, String by) {
        LocalDateTime now = now();
        return jdbc.update("UPDATE read_model_rebuild SET phase = 'CANCELLED', phase_at = ?, ended_at = ?, cancelled_by = ?, failure = ?,"
                + " running_slot = NULL WHERE rebuild_id = ? AND " + RUNNING + " AND phase <> 'SWAPPING'", now, now, by, "cancelled by " + by, id) == 1;
    }

    Optional<RebuildView> find(String id) {
        return jdbc.query("SELECT " + COLUMNS + " FROM read_model_rebuild WHERE rebuild_id = ?", this::view, id).stream().findFirst();
    }

    List<RebuildView> recent(int limit) {
        return jdbc.query("SELECT " + COLUMNS + " FROM read_model_rebuild ORDER BY requested_at DESC, rebuild_id LIMIT ?", this::view, limit);
    }

    List<RebuildView> running() {
        return jdbc.query("SELECT " + COLUMNS + " FROM read_model_rebuild WHERE " + RUNNING + " ORDER BY requested_at", this::view);
    }

    Optional<byte[]> swapToken(String id) {
        return jdbc.query("SELECT swap_token FROM read_model_rebuild WHERE rebuild_id = ?", (rs, n) -> rs.getBytes(1), id).stream()
                .findFirst();
    }

    private static void requireRunning(String id, int updated) {
        if (updated != 1) {
            throw new RebuildCancelled("rebuild " + id + " no longer runs (cancelled, or ended by a recovery)");
        }
    }

    private RebuildView view(ResultSet rs, int row) throws SQLException {
        RebuildPhase phase = RebuildPhase.valueOf(rs.getString("phase"));
        Instant phaseAt = instant(rs, "phase_at");
        long read = rs.getLong("events_read");
        long estimated = rs.getLong("events_estimated");
        return new RebuildView(rs.getString("rebuild_id"), rs.getString("processor"), phase, rs.getString("requested_by"),
                rs.getString("reason"), instant(rs, "requested_at"), phaseAt, instant(rs, "heartbeat_at"), instant(rs, "ended_at"),
                rs.getString("owner"), read,
                estimated, rs.getLong("rows_written"), rs.getInt("parked_events"), rs.getString("cancelled_by"), rs.getString("failure"),
                phase == RebuildPhase.LOADING ? eta(phaseAt, read, estimated) : null);
    }

    /** At the rate of the load so far; unknown before a first chunk. */
    private Duration eta(Instant loadingSince, long read, long estimated) {
        Duration elapsed = Duration.between(loadingSince, clock.instant());
        if (read <= 0 || elapsed.isNegative() || elapsed.isZero()) {
            return null;
        }
        long left = Math.max(0, estimated - read);
        return Duration.ofMillis((long) ((double) elapsed.toMillis() * left / read));
    }

    /** Stored in UTC, as every time of the read models. */
    private static Instant instant(ResultSet rs, String column) throws SQLException {
        LocalDateTime value = rs.getObject(column, LocalDateTime.class);
        return value == null ? null : value.toInstant(ZoneOffset.UTC);
    }

    private LocalDateTime now() {
        return LocalDateTime.ofInstant(clock.instant(), ZoneOffset.UTC);
    }

    private static String cut(String text) {
        return text.length() <= RebuildView.MAX_FAILURE_LENGTH ? text : text.substring(0, RebuildView.MAX_FAILURE_LENGTH);
    }
}

package io.dlqdesk.replay.request;

import io.dlqdesk.domain.incident.OperatorAction;
import org.springframework.jdbc.core.JdbcTemplate;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;

/**
 * The runtime replay switch, off until an admin turns it on. Kept in the database and read on every
 * request and every outbox poll, so turning it off stops replays on every instance at once, without
 * a restart. A configuration property can force it off whatever the table says.
 */
public class ReplaySwitch {

    private final JdbcTemplate jdbc;
    private final boolean forcedOff;

    public ReplaySwitch(JdbcTemplate jdbc, boolean forcedOff) {
        this.jdbc = jdbc;
        this.forcedOff = forcedOff;
    }

    /** A change as recorded: who, why, when. */
    public record Change(boolean enabled, String changedBy, String reason, Instant changedAt) {
    }

    /** The effective state, whether configuration forces it off, and the latest changes, newest first. */
    public record State(boolean on, boolean forcedOff, List<Change> recentChanges) {
    }

    public boolean isOn() {
        return !forcedOff && latest(1).stream().findFirst().map(Change::enabled).orElse(false);
    }

    public State state() {
        List<Change> recent = latest(20);
        boolean enabled = !recent.isEmpty() && recent.get(0).enabled();
        return new State(!forcedOff && enabled, forcedOff, recent);
    }

    /** Records the change even when it does not change the state: the request is part of the audit. */
    public State set(boolean enabled, OperatorAction by) {
        jdbc.update("INSERT INTO replay_switch_change (enabled, changed_by, reason, changed_at) VALUES (?, ?, ?, ?)",
                enabled, by.principal(), by.reason(), LocalDateTime.ofInstant(by.at(), ZoneOffset.UTC));
        return state();
    }

    private List<Change> latest(int limit) {
        return jdbc.query("SELECT enabled, changed_by, reason, changed_at FROM replay_switch_change ORDER BY id DESC LIMIT ?",
                ReplaySwitch::change, limit);
    }

    private static Change change(ResultSet row, int number) throws SQLException {
        return new Change(row.getBoolean("enabled"), row.getString("changed_by"), row.getString("reason"),
                row.getObject("changed_at", LocalDateTime.class).toInstant(ZoneOffset.UTC));
    }
}

package io.dlqdesk.notifications.source;

import org.springframework.jdbc.core.JdbcTemplate;

import java.time.Instant;
import java.util.List;

/**
 * {@code notification_ingest_stall}: the ingest stalls announced and not ended, one row per instance and stall. Each
 * call runs in the caller's transaction, the one that writes the matching deliveries.
 */
final class OpenStalls {

    /** Far more than instances ever run: a bound on one read, not a limit anyone reaches. */
    private static final int MAX_READ = 500;

    record Stall(String instance, long sinceMillis) {

        boolean is(String otherInstance, Instant since) {
            return instance.equals(otherInstance) && sinceMillis == since.toEpochMilli();
        }
    }

    private final JdbcTemplate jdbc;

    OpenStalls(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    void opened(String instance, Instant since) {
        jdbc.update("INSERT IGNORE INTO notification_ingest_stall (instance, stalled_since_ms, recorded_at) VALUES (?, ?, UTC_TIMESTAMP(6))",
                instance, since.toEpochMilli());
    }

    /** True when this call ended it (it was open): whoever ends a stall writes its end. */
    boolean ended(String instance, long sinceMillis) {
        return jdbc.update("DELETE FROM notification_ingest_stall WHERE instance = ? AND stalled_since_ms = ?", instance, sinceMillis) == 1;
    }

    List<Stall> all() {
        return jdbc.query("SELECT instance, stalled_since_ms FROM notification_ingest_stall ORDER BY recorded_at LIMIT " + MAX_READ,
                (row, number) -> new Stall(row.getString("instance"), row.getLong("stalled_since_ms")));
    }
}

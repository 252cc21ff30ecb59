package io.dlqdesk.notifications.delivery;

import io.dlqdesk.notifications.Notification;
import io.dlqdesk.notifications.NotificationProperties.Webhook;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The durable per-receiver delivery table ({@code notification_delivery}). A notification becomes one row per receiver
 * that wants its event, written in the caller's transaction (the processor's, so a handled event always has its rows);
 * each receiver's sender takes its own rows one at a time, under a lease, so a slow or failing receiver holds back
 * nothing but its own rows. Every time is the database's clock, shared by all instances.
 */
public final class Deliveries {

    public static final int MAX_ERROR_LENGTH = 1000;

    private final JdbcTemplate jdbc;
    private final TransactionTemplate readCommitted;
    private final List<Webhook> webhooks;
    private final WebhookBody bodies;

    public Deliveries(JdbcTemplate jdbc, TransactionTemplate readCommitted, List<Webhook> webhooks, WebhookBody bodies) {
        this.jdbc = jdbc;
        this.readCommitted = readCommitted;
        this.webhooks = List.copyOf(webhooks);
        this.bodies = bodies;
    }

    /** A row per receiver that wants it, due now; the same notification again adds nothing. */
    public void enqueue(Notification notification) {
        List<Object[]> rows = new ArrayList<>();
        for (Webhook webhook : webhooks) {
            if (webhook.wants(notification.event())) {
                rows.add(new Object[] {webhook.name(), notification.id(), notification.event().wireName(), bodies.render(notification, webhook.preset())});
            }
        }
        if (!rows.isEmpty()) {
            jdbc.batchUpdate("INSERT IGNORE INTO notification_delivery (receiver, notification_id, event, body, status, tries,"
                    + " created_at, next_attempt_at) VALUES (?, ?, ?, ?, 'PENDING', 0, UTC_TIMESTAMP(6), UTC_TIMESTAMP(6))", rows);
        }
    }

    /** One delivery taken. {@code age} is since it was written, by the database clock. */
    record Claimed(long id, String notificationId, String event, String body, int tries, Duration age) {
    }

    /**
     * The receiver's row due longest, taken for {@code lease}: rows another sender holds are skipped, and a row whose
     * sender died is due again when its lease ends (so it is sent at least once). By due time, not age: a row that failed
     * is due again after its backoff, behind the rows that waited meanwhile, so no one body holds back the others.
     */
    Optional<Claimed> claimNext(String receiver, Duration lease) {
        return readCommitted.execute(status -> {
            List<Claimed> due = jdbc.query("SELECT id, notification_id, event, body, tries, TIMESTAMPDIFF(MICROSECOND, created_at, UTC_TIMESTAMP(6)) AS age_us"
                            + " FROM notification_delivery WHERE receiver = ? AND status = 'PENDING' AND next_attempt_at <= UTC_TIMESTAMP(6)"
                            + " ORDER BY next_attempt_at, id LIMIT 1 FOR UPDATE SKIP LOCKED",
                    (row, number) -> new Claimed(row.getLong("id"), row.getString("notification_id"), row.getString("event"), row.getString("body"),
                            row.getInt("tries"), Duration.ofNanos(row.getLong("age_us") * 1000)), receiver);
            if (due.isEmpty()) {
                return Optional.empty();
            }
            jdbc.update("UPDATE notification_delivery SET next_attempt_at = UTC_TIMESTAMP(6) + INTERVAL ? MICROSECOND WHERE id = ?",
                    micros(lease), due.get(0).id());
            return Optional.of(due.get(0));
        });
    }

    void delivered(long id) {
        jdbc.update("UPDATE notification_delivery SET status = 'DELIVERED', tries = tries + 1, decided_at = UTC_TIMESTAMP(6), last_error = NULL"
                + " WHERE id = ? AND status = 'PENDING'", id);
    }

    void retryLater(long id, String error, Duration wait) {
        jdbc.update("UPDATE notification_delivery SET tries = tries + 1, last_error = ?, next_attempt_at = UTC_TIMESTAMP(6) + INTERVAL ? MICROSECOND"
                + " WHERE id = ? AND status = 'PENDING'", cut(error), micros(wait), id);
    }

    /** A claimed row untried after all (its sender is stopping): due now, as it was. */
    void giveBack(long id) {
        jdbc.update("UPDATE notification_delivery SET next_attempt_at = UTC_TIMESTAMP(6) WHERE id = ? AND status = 'PENDING'", id);
    }

    void gaveUp(long id, String error) {
        jdbc.update("UPDATE notification_delivery SET status = 'GAVE_UP', tries = tries + 1, last_error = ?, decided_at = UTC_TIMESTAMP(6)"
                + " WHERE id = ? AND status = 'PENDING'", cut(error), id);
    }

    /** Deletes up to {@code limit} rows decided more than {@code keep} ago; pending rows are never deleted. */
    int purgeDecided(Duration keep, int limit) {
        return jdbc.update("DELETE FROM notification_delivery WHERE status <> 'PENDING' AND decided_at < UTC_TIMESTAMP(6) - INTERVAL ? SECOND LIMIT ?",
                keep.toSeconds(), limit);
    }

    private static long micros(Duration duration) {
        return duration.toNanos() / 1000;
    }

    private static String cut(String error) {
        return error == null || error.length() <= MAX_ERROR_LENGTH ? error : error.substring(0, MAX_ERROR_LENGTH - 1) + "…";
    }
}

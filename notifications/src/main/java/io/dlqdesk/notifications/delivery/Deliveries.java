package io.dlqdesk.notifications.delivery;

import io.dlqdesk.notifications.Notification;
import io.dlqdesk.notifications.NotificationEvent;
import io.dlqdesk.notifications.NotificationProperties.Webhook;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;

/**
 * The durable per-receiver delivery table ({@code notification_delivery}). A notification becomes one row per receiver
 * that wants its event, written in the caller's transaction (the processor's, so a handled event always has its rows);
 * each receiver's sender takes its own rows one at a time, under a lease, so a slow or failing receiver holds back
 * nothing but its own rows. A receiver's notifications of an event beyond its {@link RateLimit} are held and counted in
 * one message instead. Every time is the database's clock, shared by all instances.
 */
public final class Deliveries {

    public static final int MAX_ERROR_LENGTH = 1000;
    /** The width of the row's summary column: what a coalesced message names its held notifications by. */
    public static final int MAX_SUMMARY_LENGTH = 300;

    private final JdbcTemplate jdbc;
    private final TransactionTemplate readCommitted;
    private final List<Webhook> webhooks;
    private final WebhookBody bodies;
    private final RateLimit rate;

    public Deliveries(JdbcTemplate jdbc, TransactionTemplate readCommitted, List<Webhook> webhooks, WebhookBody bodies, RateLimit rate) {
        this.jdbc = jdbc;
        this.readCommitted = readCommitted;
        this.webhooks = List.copyOf(webhooks);
        this.bodies = bodies;
        this.rate = rate;
    }

    /**
     * A row per receiver that wants it, due now, or held when the receiver's rate window for this event has had its
     * {@link RateLimit#limit()} already (then due when the window ends, to be counted by {@link #coalesceDue}). The same
     * notification again adds nothing and counts nothing.
     */
    public void enqueue(Notification notification) {
        String event = notification.event().wireName();
        for (Webhook webhook : webhooks) {
            if (!webhook.wants(notification.event()) || !jdbc.queryForList("SELECT 1 FROM notification_delivery WHERE receiver = ?"
                    + " AND notification_id = ?", Integer.class, webhook.name(), notification.id()).isEmpty()) {
                continue;
            }
            long window = micros(rate.window());
            countInWindow(webhook.name(), event, window);
            // held, and due at the window's end, once the window has had its limit (this one counted)
            jdbc.update("INSERT IGNORE INTO notification_delivery (receiver, notification_id, event, body, summary, status, tries, created_at,"
                            + " next_attempt_at) SELECT ?, ?, ?, ?, ?, IF(w.notifications > ?, 'HELD', 'PENDING'), 0, UTC_TIMESTAMP(6),"
                            + " IF(w.notifications > ?, w.window_start + INTERVAL ? MICROSECOND, UTC_TIMESTAMP(6))"
                            + " FROM notification_rate_window w WHERE w.receiver = ? AND w.event = ?",
                    webhook.name(), notification.id(), event, bodies.render(notification, webhook.preset()),
                    ChatText.cut(notification.summary(), MAX_SUMMARY_LENGTH), rate.limit(), rate.limit(), window, webhook.name(), event);
        }
    }

    /**
     * Counts a notification in its receiver's window for the event; a window past its end starts anew with it. The
     * upsert locks the window's row up to the caller's commit, so concurrent writers (the processor, every instance's
     * stall watch, {@link #coalesceDue}) take their turns. MariaDB assigns left to right: the count is decided on the
     * old window start.
     */
    private void countInWindow(String receiver, String event, long windowMicros) {
        jdbc.update("INSERT INTO notification_rate_window (receiver, event, window_start, notifications) VALUES (?, ?, UTC_TIMESTAMP(6), 1)"
                + " ON DUPLICATE KEY UPDATE notifications = IF(window_start <= UTC_TIMESTAMP(6) - INTERVAL ? MICROSECOND, 1, notifications + 1),"
                + " window_start = IF(window_start <= UTC_TIMESTAMP(6) - INTERVAL ? MICROSECOND, UTC_TIMESTAMP(6), window_start)",
                receiver, event, windowMicros, windowMicros);
    }

    /** A held row, as its coalesced message counts and names it. */
    private record Held(long id, String summary, Instant createdAt) {
    }

    /**
     * The receiver's held rows whose window has ended, per event as one PENDING message that counts them (they turn
     * COALESCED, naming it); returns how many were counted. Each event in a transaction of its own that first locks the
     * receiver's window row of it: instances coalescing at once wait for each other, so one message counts them all.
     * Held rows still being written are skipped, not waited for: they are counted next time.
     */
    int coalesceDue(String receiver) {
        List<String> events = jdbc.queryForList("SELECT DISTINCT event FROM notification_delivery WHERE receiver = ? AND status = 'HELD'"
                + " AND next_attempt_at <= UTC_TIMESTAMP(6)", String.class, receiver);
        int counted = 0;
        for (String event : events) {
            counted += readCommitted.execute(status -> coalesce(receiver, event));
        }
        return counted;
    }

    private int coalesce(String receiver, String event) {
        jdbc.queryForList("SELECT notifications FROM notification_rate_window WHERE receiver = ? AND event = ? FOR UPDATE", Integer.class,
                receiver, event);
        List<Held> held = jdbc.query("SELECT id, summary, created_at FROM notification_delivery WHERE receiver = ? AND status = 'HELD'"
                        + " AND next_attempt_at <= UTC_TIMESTAMP(6) AND event = ? ORDER BY id FOR UPDATE SKIP LOCKED",
                (row, number) -> new Held(row.getLong("id"), row.getString("summary"),
                        row.getObject("created_at", LocalDateTime.class).toInstant(ZoneOffset.UTC)), receiver, event);
        Webhook webhook = webhooks.stream().filter(candidate -> candidate.name().equals(receiver)).findFirst().orElse(null);
        if (held.isEmpty() || webhook == null) {
            return 0;
        }
        List<String> first = held.stream().limit(CoalescedNotification.NAMED).map(row -> row.summary() == null ? "" : row.summary()).toList();
        Notification message = CoalescedNotification.of(NotificationEvent.ofWireName(event), held.get(0).id(), held.size(), first,
                held.get(0).createdAt(), held.get(held.size() - 1).createdAt(), rate);
        jdbc.update("INSERT IGNORE INTO notification_delivery (receiver, notification_id, event, body, summary, status, tries,"
                        + " created_at, next_attempt_at) VALUES (?, ?, ?, ?, ?, 'PENDING', 0, UTC_TIMESTAMP(6), UTC_TIMESTAMP(6))",
                receiver, message.id(), event, bodies.render(message, webhook.preset()), ChatText.cut(message.summary(), MAX_SUMMARY_LENGTH));
        jdbc.batchUpdate("UPDATE notification_delivery SET status = 'COALESCED', decided_at = UTC_TIMESTAMP(6), coalesced_into = ?"
                + " WHERE id = ? AND status = 'HELD'", held.stream().map(row -> new Object[] {message.id(), row.id()}).toList());
        return held.size();
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

package io.dlqdesk.replay.outbox;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.jdbc.core.JdbcTemplate;

import java.util.concurrent.atomic.AtomicLong;

/**
 * PENDING outbox rows and how long the oldest has waited, read by {@link #refresh()} on a schedule,
 * never on a scrape. The age is taken with the database clock, which also wrote {@code created_at}.
 */
public final class OutboxGauges {

    private final JdbcTemplate jdbc;
    private final AtomicLong pending = new AtomicLong();
    private final AtomicLong oldestPendingAgeMillis = new AtomicLong();

    public OutboxGauges(JdbcTemplate jdbc, MeterRegistry meters) {
        this.jdbc = jdbc;
        Gauge.builder("dlq.replay.outbox_pending", pending, AtomicLong::get).description("outbox rows not decided yet").register(meters);
        Gauge.builder("dlq.replay.outbox_oldest_pending.age", oldestPendingAgeMillis, millis -> millis.get() / 1000.0).baseUnit("seconds")
                .description("how long the oldest undecided outbox row has waited (0 when none), as of the last refresh").register(meters);
    }

    /** One query; a failure leaves the last values in place and reaches the caller. */
    public void refresh() {
        jdbc.query("SELECT COUNT(*) AS pending, COALESCE(TIMESTAMPDIFF(MICROSECOND, MIN(created_at), UTC_TIMESTAMP(6)), 0) AS age_micros"
                + " FROM replay_outbox WHERE status = 'PENDING'", row -> {
            pending.set(row.getLong("pending"));
            oldestPendingAgeMillis.set(Math.max(0, row.getLong("age_micros") / 1000));
        });
    }
}

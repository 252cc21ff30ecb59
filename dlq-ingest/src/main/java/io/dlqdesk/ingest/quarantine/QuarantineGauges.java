package io.dlqdesk.ingest.quarantine;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.jdbc.core.JdbcTemplate;

import java.util.concurrent.atomic.AtomicLong;

/** Records in dlq_quarantine, counted by {@link #refresh()} on a schedule, never on a scrape. */
public final class QuarantineGauges {

    private final JdbcTemplate jdbc;
    private final AtomicLong records = new AtomicLong();

    public QuarantineGauges(JdbcTemplate jdbc, MeterRegistry meters) {
        this.jdbc = jdbc;
        Gauge.builder("dlq.ingest.quarantined_records", records, AtomicLong::get)
                .description("DLQ records kept in quarantine (they can never become an incident)").register(meters);
    }

    /** One query; a failure leaves the last value in place and reaches the caller. */
    public void refresh() {
        Long count = jdbc.queryForObject("SELECT COUNT(*) FROM dlq_quarantine", Long.class);
        records.set(count == null ? 0 : count);
    }
}

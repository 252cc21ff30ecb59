package io.dlqdesk.projections.job;

import io.dlqdesk.domain.job.ReplayJobStatus;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.jdbc.core.JdbcTemplate;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code dlq.replay.jobs{status}}: replay jobs per state (one series per {@link ReplayJobStatus}, so a fixed set), and
 * {@code dlq.replay.jobs.remaining}: incidents not yet asked by RUNNING or PAUSED jobs. Read by {@link #refresh()} on a
 * schedule, never on a scrape.
 */
public final class ReplayJobGauges {

    private final JdbcTemplate jdbc;
    private final Map<ReplayJobStatus, AtomicLong> jobs = new EnumMap<>(ReplayJobStatus.class);
    private final AtomicLong remaining = new AtomicLong();

    public ReplayJobGauges(JdbcTemplate jdbc, MeterRegistry meters) {
        this.jdbc = jdbc;
        for (ReplayJobStatus status : ReplayJobStatus.values()) {
            AtomicLong count = new AtomicLong();
            jobs.put(status, count);
            Gauge.builder("dlq.replay.jobs", count, AtomicLong::get).tag("status", status.name())
                    .description("replay jobs in this state").register(meters);
        }
        Gauge.builder("dlq.replay.jobs.remaining", remaining, AtomicLong::get)
                .description("incidents that RUNNING or PAUSED replay jobs have not asked yet").register(meters);
    }

    /** One query; a failure leaves the last values in place and reaches the caller. */
    public void refresh() {
        Map<ReplayJobStatus, Long> counts = new EnumMap<>(ReplayJobStatus.class);
        long[] left = {0};
        jdbc.query("SELECT status, COUNT(*) AS jobs, SUM(selected - requested - refused) AS remaining FROM replay_job GROUP BY status", row -> {
            ReplayJobStatus status = ReplayJobStatus.valueOf(row.getString("status"));
            counts.put(status, row.getLong("jobs"));
            if (status.hasWorkLeft()) {
                left[0] += row.getLong("remaining");
            }
        });
        jobs.forEach((status, count) -> count.set(counts.getOrDefault(status, 0L)));
        remaining.set(left[0]);
    }
}

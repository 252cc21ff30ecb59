package io.dlqdesk.projections.readiness;

import org.springframework.jdbc.core.JdbcTemplate;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * Reads the rollback-readiness facts from the {@code replay_attempt} read model. Public so that the
 * rollback checker's command-line entry point can read them without the service (and without Axon).
 */
public final class RollbackFactsReader {

    private final JdbcTemplate jdbc;

    public RollbackFactsReader(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Waivers listed in an answer, newest first; the count covers them all. */
    static final int RECENT_WAIVERS = 20;

    /**
     * Attempts REQUESTED, the latest decision, the highest published offsets and the end offsets of attempts that may have
     * gone out (PUBLISH_FAILED, PUBLISH_UNKNOWN), however long ago they were decided, less those an admin waived.
     */
    public RollbackFacts read() {
        Long requested = jdbc.queryForObject("SELECT COUNT(*) FROM replay_attempt WHERE status = 'REQUESTED'", Long.class);
        LocalDateTime last = jdbc.queryForObject("SELECT MAX(decided_at) FROM replay_attempt", LocalDateTime.class);
        var published = jdbc.query("SELECT target_group, published_topic, published_partition, MAX(published_offset) AS highest "
                        + "FROM replay_attempt WHERE status = 'PUBLISHED' AND waived_at IS NULL "
                        + "GROUP BY target_group, published_topic, published_partition ORDER BY target_group, published_topic, published_partition",
                (row, number) -> {
                    Long highest = row.getObject("highest", Long.class);
                    // PUBLISHED without an offset cannot be checked: never consumed, rather than consumed at offset 0
                    return new RollbackFacts.PublishedPosition(row.getString("target_group"), row.getString("published_topic"),
                            row.getInt("published_partition"), highest == null ? Long.MAX_VALUE : highest);
                });
        var maybePublished = jdbc.query("SELECT target_group, target_topic, target_partition, COUNT(*) AS attempts, "
                        + "MAX(end_offset_at_decision) AS highest_end, SUM(end_offset_at_decision IS NULL) AS without_end "
                        + "FROM replay_attempt WHERE status IN ('PUBLISH_FAILED', 'PUBLISH_UNKNOWN') AND waived_at IS NULL "
                        + "GROUP BY target_group, target_topic, target_partition ORDER BY target_group, target_topic, target_partition",
                (row, number) -> new RollbackFacts.MaybePublishedPosition(row.getString("target_group"), row.getString("target_topic"),
                        row.getInt("target_partition"), row.getLong("attempts"), row.getObject("highest_end", Long.class),
                        row.getLong("without_end")));
        Long waived = jdbc.queryForObject("SELECT COUNT(*) FROM replay_attempt WHERE waived_at IS NOT NULL", Long.class);
        var recentWaivers = jdbc.query("SELECT incident_id, attempt, waived_by, waived_reason, waived_at FROM replay_attempt "
                        + "WHERE waived_at IS NOT NULL ORDER BY waived_at DESC, incident_id, attempt LIMIT " + RECENT_WAIVERS,
                (row, number) -> new RollbackFacts.Waiver(row.getString("incident_id"), row.getInt("attempt"), row.getString("waived_by"),
                        row.getString("waived_reason"), row.getObject("waived_at", LocalDateTime.class).toInstant(ZoneOffset.UTC)));
        var activeJobs = jdbc.query("SELECT job_id, status FROM replay_job_active ORDER BY job_id",
                (row, number) -> new RollbackFacts.ActiveJob(row.getString("job_id"), row.getString("status")));
        return new RollbackFacts(requested == null ? 0 : requested, last == null ? null : last.toInstant(ZoneOffset.UTC), published,
                maybePublished, waived == null ? 0 : waived, activeJobs, recentWaivers);
    }
}

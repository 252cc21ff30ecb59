package io.dlqdesk.projections.job;

import io.dlqdesk.domain.api.JobReplayDecided;
import io.dlqdesk.domain.api.JobReplayRefailed;
import io.dlqdesk.domain.api.JobReplayRefused;
import io.dlqdesk.domain.api.JobReplayRequested;
import io.dlqdesk.domain.api.ReplayJobApproved;
import io.dlqdesk.domain.api.ReplayJobCancelled;
import io.dlqdesk.domain.api.ReplayJobCompleted;
import io.dlqdesk.domain.api.ReplayJobCreated;
import io.dlqdesk.domain.api.ReplayJobPaused;
import io.dlqdesk.domain.api.ReplayJobResumed;
import io.dlqdesk.domain.job.ReplayJobId;
import io.dlqdesk.domain.job.ReplayJobPauseReason;
import io.dlqdesk.domain.job.ReplayJobStatus;
import io.dlqdesk.domain.replay.ReplayRefusal;
import io.dlqdesk.projections.OrderedStatements;
import io.dlqdesk.projections.PendingWrites;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventhandling.ResetHandler;
import org.axonframework.eventhandling.Timestamp;
import org.axonframework.queryhandling.QueryHandler;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Replay jobs with their progress ({@code replay_job}, {@code replay_job_refusal}), from the jobs' own events: a job records
 * each answer, publish result and re-failure once, so counting its events counts incidents. A batch's statements run as JDBC
 * batches when it commits. Resettable; rebuilt from events.
 */
@Component
@ProcessingGroup(ReplayJobProjection.PROCESSING_GROUP)
public class ReplayJobProjection {

    /** Explicit, so that moving this class never resets its token. */
    public static final String PROCESSING_GROUP = "replay-jobs";

    private static final String COLUMNS = "job_id, selection, status, pause_reason, created_by, reason, created_at, running_since, updated_at,"
            + " rate_per_second, max_in_flight, canary, max_refailure_rate, selected, requested, refused, published, publish_failed,"
            + " publish_unknown, refailed, approved_by, approval_reason, approved_at";
    private static final String CREATED = "INSERT INTO replay_job (job_id, selection, status, created_by, reason, created_at, running_since,"
            + " updated_at, rate_per_second, max_in_flight, canary, max_refailure_rate, selected) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            + " ON DUPLICATE KEY UPDATE job_id = job_id";
    /** A RUNNING job in which nothing moved for this long is stalled: it shows since when, and no ETA. */
    static final Duration STALLED_AFTER = Duration.ofMinutes(1);
    private static final String REFUSED_BY = "INSERT INTO replay_job_refusal (job_id, refusal, incidents) VALUES (?, ?, 1)"
            + " ON DUPLICATE KEY UPDATE incidents = incidents + 1";

    private final JdbcTemplate jdbc;
    private final Clock clock = Clock.systemUTC();
    /** A batch's statements; those of one job in event order. */
    private final PendingWrites<OrderedStatements> pending;

    /** Over the tables {@code jdbc} reaches: the live ones, or a bulk rebuild's. */
    public ReplayJobProjection(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
        this.pending = new PendingWrites<>(PROCESSING_GROUP, jdbc.getDataSource(), OrderedStatements::new, statements -> statements.run(jdbc));
    }

    @EventHandler
    void on(ReplayJobCreated event, @Timestamp Instant at) {
        var limits = event.limits();
        String selection = event.selection().length() <= 2000 ? event.selection() : event.selection().substring(0, 2000);
        pending.record(statements -> statements.add(event.jobId().value(), CREATED, event.jobId().value(), selection, event.initialStatus().name(),
                event.createdBy().principal(), event.createdBy().reason(), utc(at), event.awaitingApproval() ? null : utc(at), utc(at),
                limits.ratePerSecond(),
                limits.maxInFlight(), limits.canary(), limits.maxRefailureRate(), event.selected()));
    }

    @EventHandler
    void on(JobReplayRequested event, @Timestamp Instant at) {
        count(event.jobId(), "requested", at);
    }

    @EventHandler
    void on(JobReplayRefused event, @Timestamp Instant at) {
        count(event.jobId(), "refused", at);
        for (ReplayRefusal refusal : event.refusals()) {
            pending.record(statements -> statements.add(event.jobId().value(), REFUSED_BY, event.jobId().value(), refusal.name()));
        }
    }

    @EventHandler
    void on(JobReplayDecided event, @Timestamp Instant at) {
        count(event.jobId(), switch (event.status()) {
            case PUBLISHED -> "published";
            case PUBLISH_FAILED -> "publish_failed";
            default -> "publish_unknown";
        }, at);
    }

    @EventHandler
    void on(JobReplayRefailed event, @Timestamp Instant at) {
        count(event.jobId(), "refailed", at);
    }

    @EventHandler
    void on(ReplayJobPaused event, @Timestamp Instant at) {
        state(event.jobId(), ReplayJobStatus.PAUSED, event.reason(), at);
    }

    @EventHandler
    void on(ReplayJobResumed event, @Timestamp Instant at) {
        pending.record(statements -> statements.add(event.jobId().value(), "UPDATE replay_job SET status = 'RUNNING', pause_reason = NULL,"
                + " running_since = ?, updated_at = ? WHERE job_id = ?", utc(at), utc(at), event.jobId().value()));
    }

    @EventHandler
    void on(ReplayJobApproved event, @Timestamp Instant at) {
        pending.record(statements -> statements.add(event.jobId().value(), "UPDATE replay_job SET status = 'RUNNING', approved_by = ?,"
                + " approval_reason = ?, approved_at = ?, running_since = ?, updated_at = ? WHERE job_id = ?", event.by().principal(),
                event.by().reason(), utc(at), utc(at), utc(at), event.jobId().value()));
    }

    @EventHandler
    void on(ReplayJobCancelled event, @Timestamp Instant at) {
        state(event.jobId(), ReplayJobStatus.CANCELLED, null, at);
    }

    @EventHandler
    void on(ReplayJobCompleted event, @Timestamp Instant at) {
        state(event.jobId(), ReplayJobStatus.COMPLETED, null, at);
    }

    @QueryHandler
    Optional<ReplayJobView> handle(FindReplayJobQuery query) {
        return jdbc.query("SELECT " + COLUMNS + " FROM replay_job WHERE job_id = ?", this::view, query.jobId().value()).stream().findFirst();
    }

    @QueryHandler
    ReplayJobPage handle(ListReplayJobsQuery query) {
        List<ReplayJobView> items = jdbc.query("SELECT " + COLUMNS + " FROM replay_job ORDER BY created_at DESC, job_id LIMIT ? OFFSET ?",
                this::view, query.size(), (long) query.page() * query.size());
        Long total = jdbc.queryForObject("SELECT COUNT(*) FROM replay_job", Long.class);
        return new ReplayJobPage(items, query.page(), query.size(), total == null ? 0 : total);
    }

    @ResetHandler
    void reset() {
        pending.discard();
        jdbc.update("DELETE FROM replay_job_refusal");
        jdbc.update("DELETE FROM replay_job");
    }

    private void count(ReplayJobId job, String column, Instant at) {
        pending.record(statements -> statements.add(job.value(), "UPDATE replay_job SET " + column + " = " + column + " + 1, updated_at = ?"
                + " WHERE job_id = ?", utc(at), job.value()));
    }

    private void state(ReplayJobId job, ReplayJobStatus status, ReplayJobPauseReason reason, Instant at) {
        pending.record(statements -> statements.add(job.value(), "UPDATE replay_job SET status = ?, pause_reason = ?, updated_at = ?"
                + " WHERE job_id = ?", status.name(), reason == null ? null : reason.name(), utc(at), job.value()));
    }

    private ReplayJobView view(ResultSet row, int number) throws SQLException {
        String jobId = row.getString("job_id");
        Map<String, Integer> refusedBy = new LinkedHashMap<>();
        jdbc.query("SELECT refusal, incidents FROM replay_job_refusal WHERE job_id = ? ORDER BY refusal",
                (ResultSet refusal) -> {
                    refusedBy.put(refusal.getString("refusal"), refusal.getInt("incidents"));
                }, jobId);
        int selected = row.getInt("selected");
        int requested = row.getInt("requested");
        int refused = row.getInt("refused");
        int remaining = selected - requested - refused;
        ReplayJobStatus status = ReplayJobStatus.valueOf(row.getString("status"));
        String pauseReason = row.getString("pause_reason");
        int rate = row.getInt("rate_per_second");
        Instant updatedAt = instant(row, "updated_at");
        Instant now = clock.instant();
        Instant stalledSince = stalledSince(status, updatedAt, now);
        Instant eta = status == ReplayJobStatus.RUNNING && stalledSince == null ? eta(remaining, rate, now) : null;
        return new ReplayJobView(jobId, row.getString("selection"), status, pauseReason == null ? null : ReplayJobPauseReason.valueOf(pauseReason),
                row.getString("created_by"), row.getString("reason"), instant(row, "created_at"), updatedAt,
                new ReplayJobView.Limits(rate, row.getInt("max_in_flight"), row.getObject("canary", Integer.class),
                        row.getObject("max_refailure_rate", Double.class)),
                new ReplayJobView.Progress(selected, requested, refused, refusedBy, row.getInt("published"), row.getInt("publish_failed"),
                        row.getInt("publish_unknown"), row.getInt("refailed"), remaining), eta, stalledSince,
                row.getString("approved_by") == null ? null : new ReplayJobView.Approval(row.getString("approved_by"),
                        row.getString("approval_reason"), instant(row, "approved_at")));
    }

    /** When a RUNNING job last moved, if that is {@link #STALLED_AFTER} or longer ago: every answer and result moves it. */
    static Instant stalledSince(ReplayJobStatus status, Instant lastMoved, Instant now) {
        return status == ReplayJobStatus.RUNNING && !lastMoved.plus(STALLED_AFTER).isAfter(now) ? lastMoved : null;
    }

    /** When the remaining incidents will have been asked at the job's rate. */
    static Instant eta(int remaining, int ratePerSecond, Instant now) {
        return now.plusMillis((long) Math.ceil(remaining * 1000.0 / ratePerSecond));
    }

    private static Instant instant(ResultSet row, String column) throws SQLException {
        return row.getObject(column, LocalDateTime.class).toInstant(ZoneOffset.UTC);
    }

    private static LocalDateTime utc(Instant instant) {
        return LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
    }
}

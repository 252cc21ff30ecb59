package io.dlqdesk.projections.readiness;

import io.dlqdesk.domain.api.PublishMarkedUnknown;
import io.dlqdesk.domain.api.PublishResultRecorded;
import io.dlqdesk.domain.api.ReplayConsumptionWaived;
import io.dlqdesk.domain.api.ReplayJobCancelled;
import io.dlqdesk.domain.api.ReplayJobCompleted;
import io.dlqdesk.domain.api.ReplayJobApproved;
import io.dlqdesk.domain.api.ReplayJobCreated;
import io.dlqdesk.domain.api.ReplayJobPaused;
import io.dlqdesk.domain.api.ReplayJobResumed;
import io.dlqdesk.domain.api.ReplayRequested;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.job.ReplayJobId;
import io.dlqdesk.domain.job.ReplayJobStatus;
import io.dlqdesk.domain.replay.PublishStatus;
import io.dlqdesk.projections.PendingWrites;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventhandling.ResetHandler;
import org.axonframework.eventhandling.Timestamp;
import org.axonframework.queryhandling.QueryHandler;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * Every replay attempt and how it ended, and the replay jobs with work left: the rollback-readiness facts, written per batch
 * of events. Resettable; rebuilt from events.
 */
@Component
@ProcessingGroup(ReplayAttemptProjection.PROCESSING_GROUP)
public class ReplayAttemptProjection {

    /** Explicit, so that moving this class never resets its token. */
    public static final String PROCESSING_GROUP = "rollback-facts";

    private static final String JOB_STATUS = "INSERT INTO replay_job_active (job_id, status) VALUES (?, ?) ON DUPLICATE KEY UPDATE status = VALUES(status)";
    private static final String JOB_ENDED = "DELETE FROM replay_job_active WHERE job_id = ?";

    private final JdbcTemplate jdbc;
    /** A batch's changes, written when it commits (see {@link RollbackFactsBatch}). */
    private final PendingWrites<RollbackFactsBatch> pending;

    /** Over the tables {@code jdbc} reaches: the live ones, or a bulk rebuild's. */
    public ReplayAttemptProjection(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
        this.pending = new PendingWrites<>(PROCESSING_GROUP, jdbc.getDataSource(), RollbackFactsBatch::new, batch -> batch.write(jdbc));
    }

    @EventHandler
    void on(ReplayRequested event, @Timestamp Instant at) {
        // a replay goes to the original topic and partition
        pending.record(batch -> batch.requested(AttemptRow.requested(attempt(event.incidentId(), event.attempt()), event.targetGroup(),
                event.sourceLocation().topic(), event.sourceLocation().partition(), utc(at))));
    }

    @EventHandler
    void on(PublishResultRecorded event) {
        var result = event.result();
        var at = result.publishedAt();
        pending.record(batch -> batch.decided(attempt(event.incidentId(), event.attempt()), row -> row.decided(result.status().name(),
                at == null ? null : at.topic(), at == null ? null : at.partition(), at == null ? null : at.offset(),
                utc(result.decidedAt()), result.endOffsetAtDecision())));
    }

    /**
     * The mark's time is the decision time: the record may have gone out just before it, so the retry bound counts from it;
     * its end offset (null: unknown) is where such a record would lie below.
     */
    @EventHandler
    void on(PublishMarkedUnknown event, @Timestamp Instant at) {
        pending.record(batch -> batch.decided(attempt(event.incidentId(), event.attempt()), row -> row.markedUnknown(
                PublishStatus.PUBLISH_UNKNOWN.name(), utc(at), event.endOffsetAtDecision())));
    }

    /** A job with work left holds a rollback back: RUNNING, PAUSED or AWAITING_APPROVAL jobs are kept, ended ones removed. */
    @EventHandler
    void on(ReplayConsumptionWaived event) {
        pending.record(batch -> batch.waived(attempt(event.incidentId(), event.attempt()), event.waivedBy().principal(),
                event.waivedBy().reason(), utc(event.waivedBy().at())));
    }

    @EventHandler
    void on(ReplayJobCreated event) {
        job(event.jobId(), event.initialStatus());
    }

    @EventHandler
    void on(ReplayJobApproved event) {
        job(event.jobId(), ReplayJobStatus.RUNNING);
    }

    @EventHandler
    void on(ReplayJobPaused event) {
        job(event.jobId(), ReplayJobStatus.PAUSED);
    }

    @EventHandler
    void on(ReplayJobResumed event) {
        job(event.jobId(), ReplayJobStatus.RUNNING);
    }

    @EventHandler
    void on(ReplayJobCancelled event) {
        pending.record(batch -> batch.job(event.jobId(), JOB_ENDED, event.jobId().value()));
    }

    @EventHandler
    void on(ReplayJobCompleted event) {
        pending.record(batch -> batch.job(event.jobId(), JOB_ENDED, event.jobId().value()));
    }

    @QueryHandler
    RollbackFacts handle(RollbackFactsQuery query) {
        return new RollbackFactsReader(jdbc).read();
    }

    @ResetHandler
    void reset() {
        pending.discard();
        jdbc.update("DELETE FROM replay_attempt");
        jdbc.update("DELETE FROM replay_job_active");
    }

    private void job(ReplayJobId job, ReplayJobStatus status) {
        pending.record(batch -> batch.job(job, JOB_STATUS, job.value(), status.name()));
    }

    private static AttemptRow.Key attempt(IncidentId incidentId, int attempt) {
        return new AttemptRow.Key(incidentId.value(), attempt);
    }

    private static LocalDateTime utc(Instant instant) {
        return LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
    }
}

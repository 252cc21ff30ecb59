package io.dlqdesk.replay.job;

import io.dlqdesk.domain.api.JobReplayClaimed;
import io.dlqdesk.domain.api.JobReplayDecided;
import io.dlqdesk.domain.api.JobReplayRefailed;
import io.dlqdesk.domain.api.JobReplayRefused;
import io.dlqdesk.domain.api.JobReplayRequested;
import io.dlqdesk.domain.api.PublishMarkedUnknown;
import io.dlqdesk.domain.api.PublishResultRecorded;
import io.dlqdesk.domain.api.ReplayJobApproved;
import io.dlqdesk.domain.api.ReplayJobCancelled;
import io.dlqdesk.domain.api.ReplayJobCompleted;
import io.dlqdesk.domain.api.ReplayJobCreated;
import io.dlqdesk.domain.api.ReplayJobManifestExtended;
import io.dlqdesk.domain.api.ReplayJobPaused;
import io.dlqdesk.domain.api.ReplayJobResumed;
import io.dlqdesk.domain.api.ReplayRequested;
import io.dlqdesk.domain.api.RetryFailureCorrelated;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.job.ReplayJobId;
import io.dlqdesk.domain.job.ReplayJobStatus;
import io.dlqdesk.domain.replay.PublishStatus;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventhandling.ResetHandler;
import org.axonframework.eventhandling.Timestamp;
import org.axonframework.messaging.annotation.MetaDataValue;
import org.springframework.jdbc.core.JdbcTemplate;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * The runner's work list ({@code replay_job_run}, {@code replay_job_item}), from the jobs' events and the incidents'
 * replay results. One segment: the instance holding it runs every job ({@link JobRunner}), and it sees a job's events in
 * the order they were stored. Rebuilt from events like a read model.
 */
@ProcessingGroup(JobWorkProjection.PROCESSING_GROUP)
public class JobWorkProjection {

    /** Explicit, so that moving this class never resets its token. */
    public static final String PROCESSING_GROUP = "replay-job-runner";

    private final JdbcTemplate jdbc;

    public JobWorkProjection(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @EventHandler
    void on(ReplayJobCreated event) {
        String job = event.jobId().value();
        jdbc.update("INSERT INTO replay_job_run (job_id, status, rate_per_second, max_in_flight, principal, reason) VALUES (?, ?, ?, ?, ?, ?)"
                        + " ON DUPLICATE KEY UPDATE job_id = job_id", job, event.initialStatus().name(), event.limits().ratePerSecond(),
                event.limits().maxInFlight(), event.createdBy().principal(), event.createdBy().reason());
        items(event.jobId(), 0, event.manifest());
    }

    @EventHandler
    void on(ReplayJobManifestExtended event) {
        items(event.jobId(), event.from(), event.incidents());
    }

    /** The manifest's incidents from position {@code from} on, in order. */
    private void items(ReplayJobId job, int from, List<IncidentId> incidents) {
        List<Object[]> items = new ArrayList<>();
        for (int i = 0; i < incidents.size(); i++) {
            items.add(new Object[]{job.value(), from + i, incidents.get(i).value()});
        }
        jdbc.batchUpdate("INSERT INTO replay_job_item (job_id, seq, incident_id) VALUES (?, ?, ?) ON DUPLICATE KEY UPDATE seq = seq", items);
    }

    @EventHandler
    void on(JobReplayClaimed event) {
        item(event.jobId(), event.incidentId(), "claimed = TRUE");
    }

    @EventHandler
    void on(JobReplayRequested event) {
        item(event.jobId(), event.incidentId(), "answer = 'REQUESTED', attempt = ?", event.attempt());
    }

    @EventHandler
    void on(JobReplayRefused event) {
        item(event.jobId(), event.incidentId(), "answer = 'REFUSED'");
    }

    @EventHandler
    void on(JobReplayDecided event) {
        item(event.jobId(), event.incidentId(), "result_recorded = TRUE");
    }

    @EventHandler
    void on(JobReplayRefailed event) {
        item(event.jobId(), event.incidentId(), "refailure_recorded = TRUE");
    }

    @EventHandler
    void on(ReplayJobPaused event) {
        status(event.jobId(), ReplayJobStatus.PAUSED);
    }

    @EventHandler
    void on(ReplayJobResumed event) {
        status(event.jobId(), ReplayJobStatus.RUNNING);
    }

    @EventHandler
    void on(ReplayJobApproved event) {
        status(event.jobId(), ReplayJobStatus.RUNNING);
    }

    @EventHandler
    void on(ReplayJobCancelled event, @Timestamp Instant at) {
        ended(event.jobId(), ReplayJobStatus.CANCELLED, at);
    }

    @EventHandler
    void on(ReplayJobCompleted event, @Timestamp Instant at) {
        ended(event.jobId(), ReplayJobStatus.COMPLETED, at);
    }

    /** A request the job made: its attempt is known before the job records the answer (a crash can come in between). */
    @EventHandler
    void on(ReplayRequested event, @MetaDataValue(JobMetadata.KEY) String job) {
        if (job != null) {
            jdbc.update("UPDATE replay_job_item SET attempt = ? WHERE job_id = ? AND incident_id = ?", event.attempt(), job,
                    event.incidentId().value());
        }
    }

    @EventHandler
    void on(PublishResultRecorded event) {
        decided(event.incidentId(), event.attempt(), event.result().status());
    }

    @EventHandler
    void on(PublishMarkedUnknown event) {
        decided(event.incidentId(), event.attempt(), PublishStatus.PUBLISH_UNKNOWN);
    }

    @EventHandler
    void on(RetryFailureCorrelated event) {
        jdbc.update("UPDATE replay_job_item SET refailed = TRUE WHERE incident_id = ? AND attempt = ?", event.incidentId().value(),
                event.attempt());
    }

    @ResetHandler
    void reset() {
        jdbc.update("DELETE FROM replay_job_item");
        jdbc.update("DELETE FROM replay_job_run");
    }

    private void decided(IncidentId incident, int attempt, PublishStatus status) {
        jdbc.update("UPDATE replay_job_item SET publish_status = ? WHERE incident_id = ? AND attempt = ?", status.name(), incident.value(),
                attempt);
    }

    /** From the event's own time, so a rebuilt work list purges what the first one did. */
    private void ended(ReplayJobId job, ReplayJobStatus status, Instant at) {
        jdbc.update("UPDATE replay_job_run SET status = ?, ended_at = ? WHERE job_id = ?", status.name(),
                LocalDateTime.ofInstant(at, ZoneOffset.UTC), job.value());
    }

    private void status(ReplayJobId job, ReplayJobStatus status) {
        jdbc.update("UPDATE replay_job_run SET status = ? WHERE job_id = ?", status.name(), job.value());
    }

    private void item(ReplayJobId job, IncidentId incident, String set, Object... values) {
        Object[] arguments = new Object[values.length + 2];
        System.arraycopy(values, 0, arguments, 0, values.length);
        arguments[values.length] = job.value();
        arguments[values.length + 1] = incident.value();
        jdbc.update("UPDATE replay_job_item SET " + set + " WHERE job_id = ? AND incident_id = ?", arguments);
    }
}

package io.dlqdesk.domain.job;

import io.dlqdesk.domain.api.JobReplayClaimed;
import io.dlqdesk.domain.api.JobReplayDecided;
import io.dlqdesk.domain.api.JobReplayRefailed;
import io.dlqdesk.domain.api.JobReplayRefused;
import io.dlqdesk.domain.api.JobReplayRequested;
import io.dlqdesk.domain.api.ReplayJobApproved;
import io.dlqdesk.domain.api.ReplayJobCancelled;
import io.dlqdesk.domain.api.ReplayJobCompleted;
import io.dlqdesk.domain.api.ReplayJobCreated;
import io.dlqdesk.domain.api.ReplayJobManifestExtended;
import io.dlqdesk.domain.api.ReplayJobPaused;
import io.dlqdesk.domain.api.ReplayJobResumed;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.OperatorAction;
import io.dlqdesk.domain.replay.PublishStatus;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.eventsourcing.EventSourcingHandler;
import org.axonframework.modelling.command.AggregateIdentifier;
import org.axonframework.serialization.Revision;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

import static org.axonframework.modelling.command.AggregateLifecycle.apply;

/**
 * A bulk replay: a fixed manifest of incidents, each asked for its replay exactly as a single replay is (the
 * incident's own conditions decide), at most once. The runner claims an incident before asking it (refused unless
 * the job is RUNNING, so nothing is asked after a pause or cancel is recorded), then records the answer and what came
 * of the replay; the job pauses itself after its canary and when too many published replays fail again. Which
 * incident is claimed next, and when, is the runner's (replay-saga); this is the record it cannot get wrong.
 *
 * <p>Its snapshot is these fields as they are ({@link JobIncidents}: a few bytes per incident); the revision names that form,
 * so a snapshot of another form is never read (the job is then sourced from its events).
 */
@Revision("3")
public class ReplayJob {

    /** The principal of the pauses the job decides itself. */
    public static final String SELF = "replay-job";

    @AggregateIdentifier
    private ReplayJobId jobId;
    private ReplayJobLimits limits;
    private ReplayJobStatus status;
    private JobIncidents incidents;
    private int published;
    private boolean canaryPassed;
    /** Who created it: four-eyes keeps them from approving it. */
    private String creator;

    protected ReplayJob() {
        // required by Axon to rebuild from events
    }

    @CommandHandler
    public ReplayJob(CreateReplayJobCommand command) {
        List<IncidentId> manifest = new ArrayList<>(new LinkedHashSet<>(command.manifest())); // first occurrence keeps its place
        if (manifest.isEmpty()) {
            throw new ReplayJobCommandRefusedException(command.jobId(), ReplayJobErrorCode.EMPTY_SELECTION,
                    "the selection holds no incident: nothing to replay");
        }
        int first = Math.min(ReplayJobCreated.MAX_PART, manifest.size());
        apply(new ReplayJobCreated(command.jobId(), command.selection(), List.copyOf(manifest.subList(0, first)), command.limits(),
                command.createdBy(), manifest.size(), command.approvalRequired()));
        for (int from = first; from < manifest.size(); from += ReplayJobCreated.MAX_PART) {
            apply(new ReplayJobManifestExtended(command.jobId(), from,
                    List.copyOf(manifest.subList(from, Math.min(manifest.size(), from + ReplayJobCreated.MAX_PART)))));
        }
    }

    /** How many incidents the job selected (the snapshot policy scales with it). */
    public int manifestSize() {
        return incidents.size();
    }

    /**
     * Takes an incident to ask; the canary pauses the job once its incidents are taken. A claim whose answer was never
     * recorded may be taken again ({@code again}) while the job runs: the runner checked the incident was not asked.
     */
    @CommandHandler
    void handle(ClaimJobReplayCommand command) {
        IncidentId incident = command.incidentId();
        int at = requireInManifest(incident);
        if (status != ReplayJobStatus.RUNNING) {
            throw refused(ReplayJobErrorCode.NOT_RUNNING, "the job is " + status + ": no incident is asked until it runs");
        }
        if (incidents.has(at, JobIncidents.CLAIMED) && !(command.again() && !incidents.has(at, JobIncidents.DECIDED))) {
            throw refused(ReplayJobErrorCode.ALREADY_CLAIMED, incident + " was claimed before: each incident is asked once");
        }
        apply(new JobReplayClaimed(jobId, incident, command.at()));
        if (limits.canary() != null && !canaryPassed && incidents.claimed() >= limits.canary() && incidents.claimed() < incidents.size()) {
            apply(new ReplayJobPaused(jobId, ReplayJobPauseReason.CANARY, self("the canary's " + limits.canary()
                    + " incident(s) were taken; look at how the consumer took them, then resume", command.at())));
        }
    }

    /** Each claimed incident's answer is recorded once; the last one completes a job that still had work left. */
    @CommandHandler
    JobRecording handle(RecordJobReplayCommand command) {
        IncidentId incident = command.incidentId();
        int at = requireInManifest(incident);
        if (!incidents.has(at, JobIncidents.CLAIMED)) {
            throw refused(ReplayJobErrorCode.NOT_CLAIMED, incident + " was not claimed: an answer is recorded only for a claimed incident");
        }
        if (incidents.has(at, JobIncidents.DECIDED)) {
            return JobRecording.ALREADY_RECORDED;
        }
        if (command.outcome().attempt() != null) {
            apply(new JobReplayRequested(jobId, incident, command.outcome().attempt()));
        } else {
            apply(new JobReplayRefused(jobId, incident, command.outcome().refusals()));
        }
        if (incidents.decided() == incidents.size() && status.hasWorkLeft()) {
            apply(new ReplayJobCompleted(jobId));
        }
        return JobRecording.RECORDED;
    }

    @CommandHandler
    JobRecording handle(RecordJobPublishResultCommand command) {
        int at = requireJobAttempt(command.incidentId(), command.attempt());
        if (incidents.has(at, JobIncidents.RESULT_RECORDED)) {
            return JobRecording.ALREADY_RECORDED;
        }
        apply(new JobReplayDecided(jobId, command.incidentId(), command.attempt(), command.status()));
        pauseIfStillBroken(command.at());
        return JobRecording.RECORDED;
    }

    /** An attempt that fails again more than once (a re-failure dead-lettered twice) counts once. */
    @CommandHandler
    JobRecording handle(RecordJobRefailureCommand command) {
        int at = requireJobAttempt(command.incidentId(), command.attempt());
        if (incidents.has(at, JobIncidents.REFAILED)) {
            return JobRecording.ALREADY_RECORDED;
        }
        apply(new JobReplayRefailed(jobId, command.incidentId(), command.attempt()));
        pauseIfStillBroken(command.at());
        return JobRecording.RECORDED;
    }

    /** Four-eyes: a second person, never the creator, lets a job that awaits approval run. */
    @CommandHandler
    void handle(ApproveReplayJobCommand command) {
        if (status != ReplayJobStatus.AWAITING_APPROVAL) {
            throw refused(ReplayJobErrorCode.NOT_AWAITING_APPROVAL, "only a job AWAITING_APPROVAL can be approved; it is " + status);
        }
        if (command.action().principal().equals(creator)) {
            throw refused(ReplayJobErrorCode.APPROVER_IS_CREATOR, command.action().principal()
                    + " created this job: a second person approves it (four-eyes)");
        }
        apply(new ReplayJobApproved(jobId, command.action()));
    }

    @CommandHandler
    void handle(PauseReplayJobCommand command) {
        if (status != ReplayJobStatus.RUNNING) {
            throw refused(ReplayJobErrorCode.NOT_RUNNING, "only a RUNNING job can be paused; it is " + status);
        }
        apply(new ReplayJobPaused(jobId, ReplayJobPauseReason.OPERATOR, command.action()));
    }

    @CommandHandler
    void handle(ResumeReplayJobCommand command) {
        if (status != ReplayJobStatus.PAUSED) {
            throw refused(ReplayJobErrorCode.NOT_PAUSED, "only a PAUSED job can be resumed; it is " + status);
        }
        apply(new ReplayJobResumed(jobId, command.action()));
    }

    @CommandHandler
    void handle(CancelReplayJobCommand command) {
        if (!status.hasWorkLeft()) {
            throw refused(ReplayJobErrorCode.ALREADY_ENDED, "the job is " + status + ": nothing is left to cancel");
        }
        apply(new ReplayJobCancelled(jobId, command.action()));
    }

    /** Counted on published replays only: a replay that never reached the consumer says nothing about it. */
    private void pauseIfStillBroken(Instant at) {
        if (status == ReplayJobStatus.RUNNING && limits.refailureRateExceeded(published, incidents.refailed())) {
            apply(new ReplayJobPaused(jobId, ReplayJobPauseReason.REFAILURE_RATE, self(incidents.refailed() + " of " + published
                    + " published replays failed again (more than " + limits.maxRefailureRate() + "): the consumer is still broken", at)));
        }
    }

    /** The incident's position in the job's record. */
    private int requireInManifest(IncidentId incident) {
        int at = incidents.indexOf(incident);
        if (at < 0) {
            throw refused(ReplayJobErrorCode.NOT_IN_MANIFEST, incident + " is not in the job's manifest");
        }
        return at;
    }

    private int requireJobAttempt(IncidentId incident, int attempt) {
        int at = requireInManifest(incident);
        if (incidents.attempt(at) != attempt) {
            throw refused(ReplayJobErrorCode.NOT_A_JOB_ATTEMPT, "attempt " + attempt + " of " + incident + " was not requested by the job");
        }
        return at;
    }

    private static OperatorAction self(String reason, Instant at) {
        return new OperatorAction(SELF, reason, at);
    }

    private ReplayJobCommandRefusedException refused(ReplayJobErrorCode code, String detail) {
        return new ReplayJobCommandRefusedException(jobId, code, detail);
    }

    @EventSourcingHandler
    void on(ReplayJobCreated event) {
        this.jobId = event.jobId();
        this.limits = event.limits();
        this.status = event.initialStatus();
        this.creator = event.createdBy().principal();
        this.incidents = new JobIncidents(event.selected());
        this.incidents.append(event.manifest());
    }

    @EventSourcingHandler
    void on(ReplayJobManifestExtended event) {
        incidents.append(event.incidents());
    }

    @EventSourcingHandler
    void on(JobReplayClaimed event) {
        incidents.mark(incidents.indexOf(event.incidentId()), JobIncidents.CLAIMED);
    }

    @EventSourcingHandler
    void on(JobReplayRequested event) {
        int at = incidents.indexOf(event.incidentId());
        incidents.mark(at, JobIncidents.DECIDED);
        incidents.attempt(at, event.attempt());
    }

    @EventSourcingHandler
    void on(JobReplayRefused event) {
        incidents.mark(incidents.indexOf(event.incidentId()), JobIncidents.DECIDED);
    }

    @EventSourcingHandler
    void on(JobReplayDecided event) {
        incidents.mark(incidents.indexOf(event.incidentId()), JobIncidents.RESULT_RECORDED);
        if (event.status() == PublishStatus.PUBLISHED) {
            published++;
        }
    }

    @EventSourcingHandler
    void on(JobReplayRefailed event) {
        incidents.mark(incidents.indexOf(event.incidentId()), JobIncidents.REFAILED);
    }

    @EventSourcingHandler
    void on(ReplayJobApproved event) {
        this.status = ReplayJobStatus.RUNNING;
    }

    @EventSourcingHandler
    void on(ReplayJobPaused event) {
        this.status = ReplayJobStatus.PAUSED;
        if (event.reason() == ReplayJobPauseReason.CANARY) {
            canaryPassed = true;
        }
    }

    @EventSourcingHandler
    void on(ReplayJobResumed event) {
        this.status = ReplayJobStatus.RUNNING;
    }

    @EventSourcingHandler
    void on(ReplayJobCancelled event) {
        this.status = ReplayJobStatus.CANCELLED;
    }

    @EventSourcingHandler
    void on(ReplayJobCompleted event) {
        this.status = ReplayJobStatus.COMPLETED;
    }
}

package io.dlqdesk.domain.job;

import io.dlqdesk.domain.api.CancelReplayJobCommand;
import io.dlqdesk.domain.api.ClaimJobReplayCommand;
import io.dlqdesk.domain.api.CreateReplayJobCommand;
import io.dlqdesk.domain.api.IncidentId;
import io.dlqdesk.domain.api.JobRecording;
import io.dlqdesk.domain.api.JobReplayClaimed;
import io.dlqdesk.domain.api.JobReplayDecided;
import io.dlqdesk.domain.api.JobReplayRefailed;
import io.dlqdesk.domain.api.JobReplayRefused;
import io.dlqdesk.domain.api.JobReplayRequested;
import io.dlqdesk.domain.api.OperatorAction;
import io.dlqdesk.domain.api.PauseReplayJobCommand;
import io.dlqdesk.domain.api.PublishStatus;
import io.dlqdesk.domain.api.RecordJobPublishResultCommand;
import io.dlqdesk.domain.api.RecordJobRefailureCommand;
import io.dlqdesk.domain.api.RecordJobReplayCommand;
import io.dlqdesk.domain.api.ReplayJobCancelled;
import io.dlqdesk.domain.api.ReplayJobCompleted;
import io.dlqdesk.domain.api.ReplayJobCreated;
import io.dlqdesk.domain.api.ReplayJobId;
import io.dlqdesk.domain.api.ReplayJobLimits;
import io.dlqdesk.domain.api.ReplayJobPauseReason;
import io.dlqdesk.domain.api.ReplayJobPaused;
import io.dlqdesk.domain.api.ReplayJobResumed;
import io.dlqdesk.domain.api.ReplayJobStatus;
import io.dlqdesk.domain.api.ResumeReplayJobCommand;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.eventsourcing.EventSourcingHandler;
import org.axonframework.modelling.command.AggregateIdentifier;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.axonframework.modelling.command.AggregateLifecycle.apply;

/**
 * A bulk replay: a fixed manifest of incidents, each asked for its replay exactly as a single replay is (the
 * incident's own conditions decide), at most once. The runner claims an incident before asking it (refused unless
 * the job is RUNNING, so nothing is asked after a pause or cancel is recorded), then records the answer and what came
 * of the replay; the job pauses itself after its canary and when too many published replays fail again. Which
 * incident is claimed next, and when, is the runner's (replay-saga); this is the record it cannot get wrong.
 */
public class ReplayJob {

    /** The principal of the pauses the job decides itself. */
    public static final String SELF = "replay-job";

    @AggregateIdentifier
    private ReplayJobId jobId;
    private ReplayJobLimits limits;
    private ReplayJobStatus status;
    private final Set<IncidentId> manifest = new HashSet<>();
    private final Set<IncidentId> claimed = new HashSet<>();
    /** Requested or refused. */
    private final Set<IncidentId> decided = new HashSet<>();
    private final Map<IncidentId, Integer> attempts = new HashMap<>();
    private final Set<IncidentId> resultRecorded = new HashSet<>();
    private final Set<IncidentId> refailed = new HashSet<>();
    private int published;
    private boolean canaryPassed;

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
        apply(new ReplayJobCreated(command.jobId(), command.selection(), manifest, command.limits(), command.createdBy()));
    }

    /**
     * Takes an incident to ask; the canary pauses the job once its incidents are taken. A claim whose answer was never
     * recorded may be taken again ({@code again}) while the job runs: the runner checked the incident was not asked.
     */
    @CommandHandler
    void handle(ClaimJobReplayCommand command) {
        IncidentId incident = command.incidentId();
        requireInManifest(incident);
        if (status != ReplayJobStatus.RUNNING) {
            throw refused(ReplayJobErrorCode.NOT_RUNNING, "the job is " + status + ": no incident is asked until it runs");
        }
        if (claimed.contains(incident) && !(command.again() && !decided.contains(incident))) {
            throw refused(ReplayJobErrorCode.ALREADY_CLAIMED, incident + " was claimed before: each incident is asked once");
        }
        apply(new JobReplayClaimed(jobId, incident, command.at()));
        if (limits.canary() != null && !canaryPassed && claimed.size() >= limits.canary() && claimed.size() < manifest.size()) {
            apply(new ReplayJobPaused(jobId, ReplayJobPauseReason.CANARY, self("the canary's " + limits.canary()
                    + " incident(s) were taken; look at how the consumer took them, then resume", command.at())));
        }
    }

    /** Each claimed incident's answer is recorded once; the last one completes a job that still had work left. */
    @CommandHandler
    JobRecording handle(RecordJobReplayCommand command) {
        IncidentId incident = command.incidentId();
        requireInManifest(incident);
        if (!claimed.contains(incident)) {
            throw refused(ReplayJobErrorCode.NOT_CLAIMED, incident + " was not claimed: an answer is recorded only for a claimed incident");
        }
        if (decided.contains(incident)) {
            return JobRecording.ALREADY_RECORDED;
        }
        if (command.outcome().attempt() != null) {
            apply(new JobReplayRequested(jobId, incident, command.outcome().attempt()));
        } else {
            apply(new JobReplayRefused(jobId, incident, command.outcome().refusals()));
        }
        if (decided.size() == manifest.size() && status.hasWorkLeft()) {
            apply(new ReplayJobCompleted(jobId));
        }
        return JobRecording.RECORDED;
    }

    @CommandHandler
    JobRecording handle(RecordJobPublishResultCommand command) {
        requireJobAttempt(command.incidentId(), command.attempt());
        if (resultRecorded.contains(command.incidentId())) {
            return JobRecording.ALREADY_RECORDED;
        }
        apply(new JobReplayDecided(jobId, command.incidentId(), command.attempt(), command.status()));
        pauseIfStillBroken(command.at());
        return JobRecording.RECORDED;
    }

    /** An attempt that fails again more than once (a re-failure dead-lettered twice) counts once. */
    @CommandHandler
    JobRecording handle(RecordJobRefailureCommand command) {
        requireJobAttempt(command.incidentId(), command.attempt());
        if (refailed.contains(command.incidentId())) {
            return JobRecording.ALREADY_RECORDED;
        }
        apply(new JobReplayRefailed(jobId, command.incidentId(), command.attempt()));
        pauseIfStillBroken(command.at());
        return JobRecording.RECORDED;
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
        if (status == ReplayJobStatus.RUNNING && limits.refailureRateExceeded(published, refailed.size())) {
            apply(new ReplayJobPaused(jobId, ReplayJobPauseReason.REFAILURE_RATE, self(refailed.size() + " of " + published
                    + " published replays failed again (more than " + limits.maxRefailureRate() + "): the consumer is still broken", at)));
        }
    }

    private void requireInManifest(IncidentId incident) {
        if (!manifest.contains(incident)) {
            throw refused(ReplayJobErrorCode.NOT_IN_MANIFEST, incident + " is not in the job's manifest");
        }
    }

    private void requireJobAttempt(IncidentId incident, int attempt) {
        requireInManifest(incident);
        Integer requested = attempts.get(incident);
        if (requested == null || requested != attempt) {
            throw refused(ReplayJobErrorCode.NOT_A_JOB_ATTEMPT, "attempt " + attempt + " of " + incident + " was not requested by the job");
        }
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
        this.status = ReplayJobStatus.RUNNING;
        this.manifest.addAll(event.manifest());
    }

    @EventSourcingHandler
    void on(JobReplayClaimed event) {
        claimed.add(event.incidentId());
    }

    @EventSourcingHandler
    void on(JobReplayRequested event) {
        decided.add(event.incidentId());
        attempts.put(event.incidentId(), event.attempt());
    }

    @EventSourcingHandler
    void on(JobReplayRefused event) {
        decided.add(event.incidentId());
    }

    @EventSourcingHandler
    void on(JobReplayDecided event) {
        resultRecorded.add(event.incidentId());
        if (event.status() == PublishStatus.PUBLISHED) {
            published++;
        }
    }

    @EventSourcingHandler
    void on(JobReplayRefailed event) {
        refailed.add(event.incidentId());
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

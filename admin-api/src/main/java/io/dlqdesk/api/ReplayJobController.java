package io.dlqdesk.api;

import io.dlqdesk.domain.InvalidValueException;
import io.dlqdesk.domain.incident.OperatorAction;
import io.dlqdesk.domain.job.ReplayJobLimits;
import io.dlqdesk.operations.OperatorActions;
import io.dlqdesk.operations.replay.ReplayJobs;
import io.dlqdesk.projections.incident.IncidentSummaryView;
import io.dlqdesk.projections.job.ListReplayJobsQuery;
import io.dlqdesk.projections.job.ReplayJobPage;
import io.dlqdesk.projections.job.ReplayJobView;
import org.axonframework.queryhandling.QueryGateway;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.net.URI;
import java.util.List;

/**
 * Bulk replay: create a job over a selection (or dry-run it), follow its progress, pause, resume or cancel it. Each incident
 * of a job is asked exactly as a single replay is; the runner paces it (replay-saga's JobRunner).
 */
@RestController
@RequestMapping("/api/v1/replay-jobs")
public class ReplayJobController {

    private final ReplayJobs jobs;
    private final QueryGateway queries;

    ReplayJobController(ReplayJobs jobs, QueryGateway queries) {
        this.jobs = jobs;
        this.queries = queries;
    }

    /**
     * A job's request. Exactly one of {@code filter} and {@code incidentIds}; {@code rate} in replays per second (default
     * {@value ReplayJobLimits#DEFAULT_RATE}, at most {@value ReplayJobLimits#MAX_RATE}); {@code maxInFlight} requested and not
     * yet decided at once (default {@value ReplayJobLimits#DEFAULT_MAX_IN_FLIGHT}); {@code canary}: pause after that many;
     * {@code maxRefailureRate}: pause when more than that share of at least {@value ReplayJobLimits#MIN_PUBLISHED_FOR_RATE}
     * published replays fail again. {@code dryRun}: answer what would happen, record nothing.
     */
    public record JobRequest(String reason, Boolean dryRun, ReplayJobs.Filter filter, List<String> incidentIds, Integer rate,
                             Integer maxInFlight, Integer canary, Double maxRefailureRate) {
    }

    /** 201 with the job and its Location, or (dryRun) 200 with what would be requested and refused. */
    @PostMapping
    public ResponseEntity<?> create(@RequestBody(required = false) JobRequest body, Authentication caller) {
        if (body == null) {
            throw new InvalidValueException("a body is required: {\"reason\": …, \"filter\": {…} or \"incidentIds\": […]}");
        }
        OperatorAction by = action(caller, body.reason());
        ReplayJobLimits limits = new ReplayJobLimits(body.rate() == null ? ReplayJobLimits.DEFAULT_RATE : body.rate(),
                body.maxInFlight() == null ? ReplayJobLimits.DEFAULT_MAX_IN_FLIGHT : body.maxInFlight(), body.canary(), body.maxRefailureRate());
        List<IncidentSummaryView> manifest = jobs.select(body.filter(), body.incidentIds());
        if (Boolean.TRUE.equals(body.dryRun())) {
            return ResponseEntity.ok(jobs.dryRun(manifest, by));
        }
        ReplayJobView job = jobs.create(manifest, selection(body), limits, by);
        return ResponseEntity.created(URI.create("/api/v1/replay-jobs/" + job.jobId())).body(job);
    }

    @GetMapping
    public ReplayJobPage list(@RequestParam(defaultValue = "0") int page, @RequestParam(defaultValue = "50") int size) {
        return queries.query(new ListReplayJobsQuery(page, size), ReplayJobPage.class).join();
    }

    @GetMapping("/{id}")
    public ReplayJobView detail(@PathVariable String id) {
        return jobs.find(ReplayJobs.parseJobId(id));
    }

    @PostMapping("/{id}/pause")
    public ResponseEntity<Void> pause(@PathVariable String id, @RequestBody(required = false) IncidentCommandController.Reason body,
                                      Authentication caller) {
        jobs.pause(ReplayJobs.parseJobId(id), action(caller, body == null ? null : body.reason()));
        return ResponseEntity.noContent().build();
    }

    @PostMapping("/{id}/resume")
    public ResponseEntity<Void> resume(@PathVariable String id, @RequestBody(required = false) IncidentCommandController.Reason body,
                                       Authentication caller) {
        jobs.resume(ReplayJobs.parseJobId(id), action(caller, body == null ? null : body.reason()));
        return ResponseEntity.noContent().build();
    }

    /** Four-eyes: someone with the APPROVER role, not the job's creator, lets a job AWAITING_APPROVAL run; 409 otherwise. */
    @PostMapping("/{id}/approve")
    public ResponseEntity<Void> approve(@PathVariable String id, @RequestBody(required = false) IncidentCommandController.Reason body,
                                        Authentication caller) {
        jobs.approve(ReplayJobs.parseJobId(id), action(caller, body == null ? null : body.reason()));
        return ResponseEntity.noContent().build();
    }

    /** No incident of the job is requested after the cancel is recorded; replays already requested finish. */
    @PostMapping("/{id}/cancel")
    public ResponseEntity<Void> cancel(@PathVariable String id, @RequestBody(required = false) IncidentCommandController.Reason body,
                                       Authentication caller) {
        jobs.cancel(ReplayJobs.parseJobId(id), action(caller, body == null ? null : body.reason()));
        return ResponseEntity.noContent().build();
    }

    private OperatorAction action(Authentication caller, String reason) {
        return OperatorActions.of(caller, reason, jobs.clock());
    }

    /** The selection in words, for the audit trail. */
    private static String selection(JobRequest body) {
        if (body.incidentIds() != null) {
            return "explicit list of " + body.incidentIds().size() + " incident id(s)";
        }
        ReplayJobs.Filter f = body.filter();
        StringBuilder words = new StringBuilder("filter");
        append(words, "topic", f.topic());
        append(words, "consumerGroup", f.consumerGroup());
        append(words, "status", f.status());
        append(words, "exceptionGroup", f.exceptionGroup());
        append(words, "detectedFrom", f.detectedFrom());
        append(words, "detectedTo", f.detectedTo());
        return words.toString();
    }

    private static void append(StringBuilder words, String name, Object value) {
        if (value != null) {
            words.append(' ').append(name).append('=').append(value);
        }
    }
}

package io.dlqdesk.operations.replay;

import io.dlqdesk.domain.InvalidValueException;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.IncidentStatus;
import io.dlqdesk.domain.incident.OperatorAction;
import io.dlqdesk.domain.job.ApproveReplayJobCommand;
import io.dlqdesk.domain.job.CancelReplayJobCommand;
import io.dlqdesk.domain.job.CreateReplayJobCommand;
import io.dlqdesk.domain.job.PauseReplayJobCommand;
import io.dlqdesk.domain.job.ReplayJobId;
import io.dlqdesk.domain.job.ReplayJobLimits;
import io.dlqdesk.domain.job.ReplayJobStatus;
import io.dlqdesk.domain.job.ResumeReplayJobCommand;
import io.dlqdesk.domain.record.RecordLocation;
import io.dlqdesk.domain.replay.ReplayRefusal;
import io.dlqdesk.operations.NotFoundException;
import io.dlqdesk.operations.incident.IncidentReads;
import io.dlqdesk.projections.incident.IncidentSummaryView;
import io.dlqdesk.projections.incident.SelectIncidentsQuery;
import io.dlqdesk.projections.job.FindReplayJobQuery;
import io.dlqdesk.projections.job.ReplayJobView;
import io.dlqdesk.replay.config.ReplayJobProperties;
import io.dlqdesk.replay.job.JobWorkList;
import io.dlqdesk.replay.request.ReplayRequester;
import io.dlqdesk.replay.request.SourceUnavailableException;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.messaging.responsetypes.ResponseTypes;
import org.axonframework.modelling.command.AggregateNotFoundException;
import org.axonframework.queryhandling.QueryGateway;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * The replay-job application service behind the API: a selection resolved to a manifest (a filter over the incident list,
 * oldest first, or explicit ids that must exist), then either the job created or a dry run that evaluates every selected
 * incident's replay conditions (reading each source record, as a request would) and records nothing.
 */
public class ReplayJobs {

    /** The ids this API gives jobs: {@code job-} and 32 hex digits, as long as an incident id (the audit trail keeps both). */
    private static final Pattern JOB_ID = Pattern.compile("job-[0-9a-f]{32}");

    /** A filter over the incident list, as {@code GET /incidents} takes it. */
    public record Filter(String topic, String consumerGroup, IncidentStatus status, String exceptionGroup, Instant detectedFrom,
                  Instant detectedTo) {
    }

    /** What a dry run found for one source partition. */
    public record PartitionDryRun(String topic, int partition, int evaluated, int wouldRequest, int wouldRefuse, Map<String, Integer> refusedBy,
                           int sourceUnavailable) {
    }

    /**
     * @param notEvaluated selected incidents beyond the dry run's bound ({@code dlqdesk.replay.jobs.dry-run-max})
     * @param sourceUnavailable incidents whose source could not be read (the broker did not answer): neither count
     */
    public record DryRun(int selected, int evaluated, int notEvaluated, int wouldRequest, int wouldRefuse, Map<String, Integer> refusedBy,
                  int sourceUnavailable, List<PartitionDryRun> byPartition) {
    }

    private final CommandGateway commands;
    private final QueryGateway queries;
    private final IncidentReads incidents;
    private final ReplayRequester requester;
    private final JobWorkList work;
    private final ReplayJobProperties properties;
    private final Supplier<ReplayJobId> ids;
    private final Clock clock;

    public ReplayJobs(CommandGateway commands, QueryGateway queries, IncidentReads incidents, ReplayRequester requester, JobWorkList work,
                      ReplayJobProperties properties, Supplier<ReplayJobId> ids, Clock clock) {
        this.commands = commands;
        this.queries = queries;
        this.incidents = incidents;
        this.requester = requester;
        this.work = work;
        this.properties = properties;
        this.ids = ids;
        this.clock = clock;
    }

    public Clock clock() {
        return clock;
    }

    public static ReplayJobId newJobId() {
        return new ReplayJobId("job-" + UUID.randomUUID().toString().replace("-", ""));
    }

    /** A job id from a URL, exactly as {@link #newJobId()} makes them: anything else (an incident's id, say) names no job. */
    public static ReplayJobId parseJobId(String text) {
        if (!JOB_ID.matcher(text).matches()) {
            throw new InvalidValueException("not a replay job id: '" + (text.length() > 80 ? text.substring(0, 80) + "…" : text)
                    + "' (expected " + JOB_ID.pattern() + ")");
        }
        return new ReplayJobId(text);
    }

    /** Exactly one of {@code filter} and {@code incidentIds}; the manifest in the order the job will run it. */
    public List<IncidentSummaryView> select(Filter filter, List<String> incidentIds) {
        if ((filter == null) == (incidentIds == null)) {
            throw new InvalidValueException("give either 'filter' or 'incidentIds', not " + (filter == null ? "neither" : "both"));
        }
        List<IncidentSummaryView> selected = filter != null ? byFilter(filter) : byIds(incidentIds);
        if (selected.isEmpty()) {
            throw new SelectionRefusedException(SelectionRefusedException.Reason.EMPTY, "the selection holds no incident: nothing to replay",
                    List.of());
        }
        return selected;
    }

    private List<IncidentSummaryView> byFilter(Filter filter) {
        int max = properties.maxSelection();
        List<IncidentSummaryView> found = queries.query(new SelectIncidentsQuery(filter.topic(), filter.consumerGroup(), filter.status(),
                filter.exceptionGroup(), filter.detectedFrom(), filter.detectedTo(), max + 1),
                ResponseTypes.multipleInstancesOf(IncidentSummaryView.class)).join();
        requireAtMost(found.size());
        return found;
    }

    private List<IncidentSummaryView> byIds(List<String> incidentIds) {
        List<IncidentId> unique = new ArrayList<>(new LinkedHashSet<>(incidentIds.stream().map(id -> {
            if (id == null) {
                throw new InvalidValueException("'incidentIds' holds a null");
            }
            return IncidentId.parse(id);
        }).toList()));
        requireAtMost(unique.size());
        List<IncidentSummaryView> found = new ArrayList<>();
        List<String> unknown = new ArrayList<>();
        for (IncidentId id : unique) {
            incidents.find(id).ifPresentOrElse(found::add, () -> unknown.add(id.value()));
        }
        if (!unknown.isEmpty()) {
            throw new SelectionRefusedException(SelectionRefusedException.Reason.UNKNOWN_INCIDENTS, unknown.size()
                    + " of the incident ids are not known (a new incident is listed within seconds): " + unknown.subList(0, Math.min(20, unknown.size())),
                    unknown);
        }
        return found;
    }

    private void requireAtMost(int count) {
        if (count > properties.maxSelection()) {
            throw new SelectionRefusedException(SelectionRefusedException.Reason.TOO_LARGE, "the selection holds more than "
                    + properties.maxSelection() + " incidents (dlqdesk.replay.jobs.max-selection): narrow it", List.of());
        }
    }

    /**
     * A job large enough for four-eyes ({@code dlqdesk.replay.jobs.approval}) is created AWAITING_APPROVAL.
     * Refused (409) when a job with work left (RUNNING, PAUSED or AWAITING_APPROVAL) selected any of the incidents: a client that retries after a
     * timeout, or a second operator, would replay them again and use up their attempts. Checked against the runner's work list,
     * which follows a new job within moments: two requests in the same moment are not told apart.
     */
    public ReplayJobView create(List<IncidentSummaryView> manifest, String selection, ReplayJobLimits limits, OperatorAction by) {
        List<IncidentId> incidents = manifest.stream().map(view -> IncidentId.parse(view.incidentId())).toList();
        Map<IncidentId, ReplayJobId> busy = work.inActiveJobs(incidents);
        if (!busy.isEmpty()) {
            List<String> activeJobs = busy.values().stream().distinct().map(ReplayJobId::value).toList();
            throw new SelectionRefusedException(SelectionRefusedException.Reason.IN_ACTIVE_JOB, busy.size()
                    + " of the selected incidents are in replay jobs with work left (" + String.join(", ", activeJobs)
                    + "): cancel those or let them end, or select the others", busy.keySet().stream().limit(100).map(IncidentId::value).toList(),
                    activeJobs);
        }
        ReplayJobId jobId = ids.get();
        boolean approvalRequired = properties.approval().requiredFor(incidents.size());
        commands.sendAndWait(new CreateReplayJobCommand(jobId, selection, incidents, limits, by, approvalRequired));
        // the read model follows within moments; until then the job is what was just created
        return new ReplayJobView(jobId.value(), selection, approvalRequired ? ReplayJobStatus.AWAITING_APPROVAL : ReplayJobStatus.RUNNING, null,
                by.principal(), by.reason(), by.at(), by.at(),
                new ReplayJobView.Limits(limits.ratePerSecond(), limits.maxInFlight(), limits.canary(), limits.maxRefailureRate()),
                new ReplayJobView.Progress(manifest.size(), 0, 0, Map.of(), 0, 0, 0, 0, manifest.size()),
                approvalRequired ? null : by.at().plusMillis((long) Math.ceil(manifest.size() * 1000.0 / limits.ratePerSecond())), null, null);
    }

    public DryRun dryRun(List<IncidentSummaryView> manifest, OperatorAction by) {
        int bound = Math.min(manifest.size(), properties.dryRunMax());
        Map<String, PartitionTally> partitions = new TreeMap<>();
        PartitionTally all = new PartitionTally(null, -1);
        for (IncidentSummaryView incident : manifest.subList(0, bound)) {
            PartitionTally partition = partitions.computeIfAbsent(incident.topic() + "\0" + String.format("%010d", incident.partition()),
                    key -> new PartitionTally(incident.topic(), incident.partition()));
            Optional<List<ReplayRefusal>> refusals;
            try {
                refusals = Optional.of(requester.evaluate(IncidentId.parse(incident.incidentId()),
                        new RecordLocation(incident.topic(), incident.partition(), incident.offset()), incident.consumerGroup(), by));
            } catch (SourceUnavailableException e) {
                refusals = Optional.empty();
            }
            partition.add(refusals);
            all.add(refusals);
        }
        return new DryRun(manifest.size(), bound, manifest.size() - bound, all.wouldRequest, all.wouldRefuse, all.refusedBy,
                all.sourceUnavailable, partitions.values().stream().map(PartitionTally::view).toList());
    }

    private static final class PartitionTally {
        final String topic;
        final int partition;
        int evaluated;
        int wouldRequest;
        int wouldRefuse;
        int sourceUnavailable;
        final Map<String, Integer> refusedBy = new LinkedHashMap<>();

        PartitionTally(String topic, int partition) {
            this.topic = topic;
            this.partition = partition;
        }

        void add(Optional<List<ReplayRefusal>> refusals) {
            evaluated++;
            if (refusals.isEmpty()) {
                sourceUnavailable++;
            } else if (refusals.get().isEmpty()) {
                wouldRequest++;
            } else {
                wouldRefuse++;
                refusals.get().forEach(refusal -> refusedBy.merge(refusal.name(), 1, Integer::sum));
            }
        }

        PartitionDryRun view() {
            return new PartitionDryRun(topic, partition, evaluated, wouldRequest, wouldRefuse, Map.copyOf(refusedBy), sourceUnavailable);
        }
    }

    public ReplayJobView find(ReplayJobId jobId) {
        return queries.query(new FindReplayJobQuery(jobId), ResponseTypes.optionalInstanceOf(ReplayJobView.class)).join()
                .orElseThrow(() -> new NotFoundException("no replay job " + jobId + " (a new job is listed within moments)"));
    }

    public void pause(ReplayJobId jobId, OperatorAction by) {
        send(jobId, by, PauseReplayJobCommand::new);
    }

    public void resume(ReplayJobId jobId, OperatorAction by) {
        send(jobId, by, ResumeReplayJobCommand::new);
    }

    public void cancel(ReplayJobId jobId, OperatorAction by) {
        send(jobId, by, CancelReplayJobCommand::new);
    }

    /** Four-eyes: a second person (never the creator) lets a job AWAITING_APPROVAL run. */
    public void approve(ReplayJobId jobId, OperatorAction by) {
        send(jobId, by, ApproveReplayJobCommand::new);
    }

    private void send(ReplayJobId jobId, OperatorAction by, BiFunction<ReplayJobId, OperatorAction, Object> command) {
        try {
            commands.sendAndWait(command.apply(jobId, by));
        } catch (AggregateNotFoundException e) {
            throw new NotFoundException("no replay job " + jobId);
        }
    }
}

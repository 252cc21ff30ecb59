package io.dlqdesk.domain.job;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.OperatorAction;
import io.dlqdesk.domain.record.BoundedText;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

import java.util.List;
import java.util.Objects;

/**
 * Creates a replay job over a fixed manifest: the incidents selected when it was created, in the order they
 * will be requested, so what runs is what was previewed.
 *
 * @param selection        how the manifest was chosen, in words (the filter or "explicit list"), for the audit trail; words
 *                         built from a request's filters, so cut to {@value #MAX_SELECTION_LENGTH} characters (marked)
 * @param approvalRequired the job waits AWAITING_APPROVAL until a second person approves it (four-eyes)
 */
public record CreateReplayJobCommand(@TargetAggregateIdentifier ReplayJobId jobId, String selection, List<IncidentId> manifest,
                                     ReplayJobLimits limits, OperatorAction createdBy, boolean approvalRequired) {

    /** A job that runs at once. */
    public CreateReplayJobCommand(ReplayJobId jobId, String selection, List<IncidentId> manifest, ReplayJobLimits limits,
                                  OperatorAction createdBy) {
        this(jobId, selection, manifest, limits, createdBy, false);
    }

    public static final int MAX_SELECTION_LENGTH = 2000;

    public CreateReplayJobCommand {
        Objects.requireNonNull(jobId, "jobId");
        selection = BoundedText.truncate(Objects.requireNonNull(selection, "selection"), MAX_SELECTION_LENGTH);
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(createdBy, "createdBy");
        manifest = List.copyOf(manifest);
    }
}

package io.dlqdesk.domain.job;

import io.dlqdesk.domain.incident.IncidentId;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

import java.time.Instant;
import java.util.Objects;

/**
 * The runner takes the next incident of a RUNNING job before asking it for its replay: the claim is where the job
 * decides, so nothing is asked after a pause or a cancel is recorded, and no incident is taken twice.
 *
 * @param again the incident was claimed before and its answer never recorded (a runner stopped in between), and the runner
 *              found in the incident's own history that the job never asked it: it is claimed again, so that asking it now
 *              still needs a RUNNING job
 */
public record ClaimJobReplayCommand(@TargetAggregateIdentifier ReplayJobId jobId, IncidentId incidentId, Instant at, boolean again) {

    public ClaimJobReplayCommand {
        Objects.requireNonNull(jobId, "jobId");
        Objects.requireNonNull(incidentId, "incidentId");
        Objects.requireNonNull(at, "at");
    }

    /** A first claim. */
    public ClaimJobReplayCommand(ReplayJobId jobId, IncidentId incidentId, Instant at) {
        this(jobId, incidentId, at, false);
    }
}

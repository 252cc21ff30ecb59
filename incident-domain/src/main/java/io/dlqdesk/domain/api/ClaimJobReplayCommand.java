package io.dlqdesk.domain.api;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

import java.time.Instant;
import java.util.Objects;

/**
 * The runner takes the next incident of a RUNNING job before asking it for its replay: the claim is where the job
 * decides, so nothing is asked after a pause or a cancel is recorded, and no incident is taken twice.
 */
public record ClaimJobReplayCommand(@TargetAggregateIdentifier ReplayJobId jobId, IncidentId incidentId, Instant at) {

    public ClaimJobReplayCommand {
        Objects.requireNonNull(jobId, "jobId");
        Objects.requireNonNull(incidentId, "incidentId");
        Objects.requireNonNull(at, "at");
    }
}

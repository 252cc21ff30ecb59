package io.dlqdesk.domain.api;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

import java.time.Instant;
import java.util.Objects;

/** Opens an incident for a failure seen for the first time. */
public record OpenIncidentCommand(@TargetAggregateIdentifier IncidentId incidentId, FailureKey failureKey, Instant detectedAt) {

    public OpenIncidentCommand {
        Objects.requireNonNull(incidentId, "incidentId");
        Objects.requireNonNull(failureKey, "failureKey");
        Objects.requireNonNull(detectedAt, "detectedAt");
        if (!incidentId.equals(IncidentId.of(failureKey))) {
            throw new IllegalArgumentException("incident id " + incidentId + " is not the one derived from " + failureKey);
        }
    }

    public static OpenIncidentCommand forFailure(FailureKey failureKey, Instant detectedAt) {
        return new OpenIncidentCommand(IncidentId.of(failureKey), failureKey, detectedAt);
    }
}

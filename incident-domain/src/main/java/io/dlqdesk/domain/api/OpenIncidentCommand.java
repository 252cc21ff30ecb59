package io.dlqdesk.domain.api;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * Opens an incident for a failure seen for the first time, or for a re-failure that did not
 * correlate to the incident it named ({@code correlationMismatches} then lists the failed checks;
 * empty otherwise). Delivering the same failure again changes nothing.
 *
 * @param replayWindow how long after the original timestamp replay stays allowed (the app's configuration)
 */
public record OpenIncidentCommand(
        @TargetAggregateIdentifier IncidentId incidentId,
        FailedRecord failure,
        Duration replayWindow,
        Instant detectedAt,
        List<CorrelationMismatch> correlationMismatches) {

    public static final Duration MAX_REPLAY_WINDOW = Duration.ofDays(365);

    public OpenIncidentCommand {
        Objects.requireNonNull(incidentId, "incidentId");
        Objects.requireNonNull(failure, "failure");
        Objects.requireNonNull(replayWindow, "replayWindow");
        Objects.requireNonNull(detectedAt, "detectedAt");
        correlationMismatches = List.copyOf(Objects.requireNonNull(correlationMismatches, "correlationMismatches"));
        if (!incidentId.equals(IncidentId.of(failure.failureKey()))) {
            throw new IllegalArgumentException("incident id " + incidentId + " is not the one derived from " + failure.failureKey());
        }
        if (replayWindow.isNegative() || replayWindow.isZero() || replayWindow.compareTo(MAX_REPLAY_WINDOW) > 0) {
            throw new IllegalArgumentException("replayWindow must be positive and at most " + MAX_REPLAY_WINDOW + ", was " + replayWindow);
        }
    }

    public static OpenIncidentCommand forFailure(FailedRecord failure, Duration replayWindow, Instant detectedAt) {
        return new OpenIncidentCommand(IncidentId.of(failure.failureKey()), failure, replayWindow, detectedAt, List.of());
    }

    /** For a re-failure that failed correlation: it becomes its own incident and keeps the reasons. */
    public static OpenIncidentCommand forUncorrelatedRetryFailure(FailedRecord failure, Duration replayWindow,
                                                                  Instant detectedAt, List<CorrelationMismatch> mismatches) {
        if (mismatches.isEmpty()) {
            throw new IllegalArgumentException("an uncorrelated re-failure has at least one failed check");
        }
        return new OpenIncidentCommand(IncidentId.of(failure.failureKey()), failure, replayWindow, detectedAt, mismatches);
    }

    public FailureKey failureKey() {
        return failure.failureKey();
    }
}

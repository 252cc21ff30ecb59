package io.dlqdesk.domain.incident;

import io.dlqdesk.domain.InvalidValueException;
import io.dlqdesk.domain.correlation.CorrelationMismatch;
import io.dlqdesk.domain.record.FailedRecord;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.domain.replay.ReplayHeaders;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Opens an incident for a failure seen for the first time, or for a re-failure that did not
 * correlate to the incident it named ({@code correlationMismatches} then lists the failed checks,
 * and {@code replayHeaders} the headers it carried; empty and null otherwise).
 * <p>
 * The id is derived from the failure ({@link IncidentId#forFailure}). The same record delivered
 * again (equal by content) is counted as a duplicate delivery; a different record under a failure
 * key already taken is refused ({@code FailureKeyTakenException}), and the caller opens it
 * {@link #keyedByDlqRecord() keyed by its DLQ record} instead, so neither is lost.
 *
 * @param replayWindow how long after the original timestamp replay stays allowed (the app's configuration)
 */
public record OpenIncidentCommand(
        @TargetAggregateIdentifier IncidentId incidentId,
        FailedRecord failure,
        Duration replayWindow,
        Instant detectedAt,
        List<CorrelationMismatch> correlationMismatches,
        ReplayHeaders replayHeaders) {

    public static final Duration MAX_REPLAY_WINDOW = Duration.ofDays(365);

    public OpenIncidentCommand {
        Objects.requireNonNull(incidentId, "incidentId");
        Objects.requireNonNull(failure, "failure");
        Objects.requireNonNull(replayWindow, "replayWindow");
        Objects.requireNonNull(detectedAt, "detectedAt");
        correlationMismatches = List.copyOf(Objects.requireNonNull(correlationMismatches, "correlationMismatches"));
        boolean keyedByDlqRecord = correlationMismatches.contains(CorrelationMismatch.FAILURE_KEY_TAKEN)
                && incidentId.equals(IncidentId.ofDlqRecord(failure.dlqLocation()));
        if (!incidentId.equals(IncidentId.forFailure(failure)) && !keyedByDlqRecord) {
            throw new InvalidValueException("incident id " + incidentId + " is not the one derived from " + failure.failureKey());
        }
        if (replayWindow.isNegative() || replayWindow.isZero() || replayWindow.compareTo(MAX_REPLAY_WINDOW) > 0) {
            throw new InvalidValueException("replayWindow must be positive and at most " + MAX_REPLAY_WINDOW + ", was " + replayWindow);
        }
    }

    public OpenIncidentCommand(IncidentId incidentId, FailedRecord failure, Duration replayWindow, Instant detectedAt,
                               List<CorrelationMismatch> correlationMismatches) {
        this(incidentId, failure, replayWindow, detectedAt, correlationMismatches, null);
    }

    public static OpenIncidentCommand forFailure(FailedRecord failure, Duration replayWindow, Instant detectedAt) {
        return new OpenIncidentCommand(IncidentId.forFailure(failure), failure, replayWindow, detectedAt, List.of(), null);
    }

    /** For a re-failure that failed correlation: it becomes its own incident and keeps the reasons and its headers. */
    public static OpenIncidentCommand forUncorrelatedRetryFailure(FailedRecord failure, Duration replayWindow, Instant detectedAt,
                                                                  List<CorrelationMismatch> mismatches, ReplayHeaders headers) {
        if (mismatches.isEmpty()) {
            throw new InvalidValueException("an uncorrelated re-failure has at least one failed check");
        }
        return new OpenIncidentCommand(IncidentId.forFailure(failure), failure, replayWindow, detectedAt, mismatches, headers);
    }

    /** The same record as an incident of its own, keyed by its DLQ record: its failure key is taken by other content. */
    public OpenIncidentCommand keyedByDlqRecord() {
        List<CorrelationMismatch> mismatches = new ArrayList<>(correlationMismatches);
        if (!mismatches.contains(CorrelationMismatch.FAILURE_KEY_TAKEN)) {
            mismatches.add(CorrelationMismatch.FAILURE_KEY_TAKEN);
        }
        return new OpenIncidentCommand(IncidentId.ofDlqRecord(failure.dlqLocation()), failure, replayWindow, detectedAt, mismatches,
                replayHeaders);
    }

    public FailureKey failureKey() {
        return failure.failureKey();
    }
}

package io.dlqdesk.domain.correlation;

import io.dlqdesk.domain.incident.CommandArguments;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.record.FailedRecord;
import io.dlqdesk.domain.replay.ReplayHeaders;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

import java.time.Instant;
import java.util.Objects;

/**
 * Ingest links a DLQ record carrying replay headers to the incident its root header names
 * ({@code incidentId}). The aggregate re-runs the nine checks against what it recorded; on any
 * mismatch it refuses with {@code RetryFailureNotCorrelatedException} (listing them), and the
 * caller opens a separate incident with {@link OpenIncidentCommand#forUncorrelatedRetryFailure}.
 * The same failure delivered again changes nothing.
 *
 * @param ledgerName this deployment's ledger name, which the owner header must equal
 */
public record CorrelateRetryFailureCommand(
        @TargetAggregateIdentifier IncidentId incidentId,
        FailedRecord failure,
        ReplayHeaders headers,
        String ledgerName,
        Instant detectedAt) {

    public CorrelateRetryFailureCommand {
        Objects.requireNonNull(incidentId, "incidentId");
        Objects.requireNonNull(failure, "failure");
        Objects.requireNonNull(headers, "headers");
        CommandArguments.requireName(ledgerName);
        Objects.requireNonNull(detectedAt, "detectedAt");
    }
}

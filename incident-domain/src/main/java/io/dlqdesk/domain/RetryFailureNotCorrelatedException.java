package io.dlqdesk.domain;

import io.dlqdesk.domain.correlation.CorrelationMismatch;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.record.FailureKey;

import java.util.List;

/**
 * The re-failure does not belong to the incident it named. Not a lost record: the caller opens a
 * separate incident for it with {@code OpenIncidentCommand.forUncorrelatedRetryFailure(…, mismatches())}.
 */
public class RetryFailureNotCorrelatedException extends IncidentCommandRefusedException {

    private final FailureKey failureKey;
    private final List<CorrelationMismatch> mismatches;

    public RetryFailureNotCorrelatedException(IncidentId incidentId, FailureKey failureKey, List<CorrelationMismatch> mismatches) {
        super(incidentId, IncidentErrorCode.RETRY_FAILURE_NOT_CORRELATED, failureKey + " failed " + mismatches);
        this.failureKey = failureKey;
        this.mismatches = List.copyOf(mismatches);
    }

    public FailureKey failureKey() {
        return failureKey;
    }

    public List<CorrelationMismatch> mismatches() {
        return mismatches;
    }
}

package io.dlqdesk.domain;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.record.FailureKey;

/**
 * A record claims a failure key the incident already recorded with other content. Not a lost
 * record: the caller opens it as an incident of its own with {@code OpenIncidentCommand.keyedByDlqRecord()}.
 */
public class FailureKeyTakenException extends IncidentCommandRefusedException {

    private final FailureKey failureKey;

    public FailureKeyTakenException(IncidentId incidentId, FailureKey failureKey) {
        super(incidentId, IncidentErrorCode.FAILURE_KEY_TAKEN, failureKey + " is already a failure of this incident with other content");
        this.failureKey = failureKey;
    }

    public FailureKey failureKey() {
        return failureKey;
    }
}

package io.dlqdesk.domain.api;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.OperatorAction;
import io.dlqdesk.domain.replay.ReplayRefusal;
import java.util.List;

/** A replay request was refused; the refusal stays in the history with every failed condition. */
public record ReplayRejected(IncidentId incidentId, List<ReplayRefusal> reasons, OperatorAction requestedBy) {

    public ReplayRejected {
        reasons = List.copyOf(reasons);
    }
}

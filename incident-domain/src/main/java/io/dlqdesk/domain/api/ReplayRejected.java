package io.dlqdesk.domain.api;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.OperatorAction;
import io.dlqdesk.domain.replay.KeyFreshness;
import io.dlqdesk.domain.replay.ReplayRefusal;
import java.util.List;

/**
 * A replay request was refused; the refusal stays in the history with every failed condition, and with what the staleness
 * check found (null in events stored before it existed, and for topics it does not cover).
 */
public record ReplayRejected(IncidentId incidentId, List<ReplayRefusal> reasons, OperatorAction requestedBy, KeyFreshness keyFreshness) {

    public ReplayRejected {
        reasons = List.copyOf(reasons);
    }

    public ReplayRejected(IncidentId incidentId, List<ReplayRefusal> reasons, OperatorAction requestedBy) {
        this(incidentId, reasons, requestedBy, null);
    }
}

package io.dlqdesk.api;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.replay.ReplayRefusal;

import java.util.List;

/** A replay request the incident refused; the refusal is already recorded on it. */
class ReplayRefusedException extends RuntimeException {

    private final List<ReplayRefusal> refusals;

    ReplayRefusedException(IncidentId incidentId, List<ReplayRefusal> refusals) {
        super("replay of " + incidentId + " refused: " + refusals);
        this.refusals = List.copyOf(refusals);
    }

    List<ReplayRefusal> refusals() {
        return refusals;
    }
}

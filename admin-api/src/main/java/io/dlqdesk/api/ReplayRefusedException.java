package io.dlqdesk.api;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.replay.KeyFreshness;
import io.dlqdesk.domain.replay.ReplayOutcome;
import io.dlqdesk.domain.replay.ReplayRefusal;

import java.util.List;

/** A replay request the incident refused; the refusal is already recorded on it. */
class ReplayRefusedException extends RuntimeException {

    private final List<ReplayRefusal> refusals;
    private final KeyFreshness keyFreshness;

    ReplayRefusedException(IncidentId incidentId, ReplayOutcome outcome) {
        super("replay of " + incidentId + " refused: " + outcome.refusals() + (outcome.keyFreshness() != null
                && outcome.keyFreshness().state() == KeyFreshness.State.STALE ? " (a newer record with the key at offset "
                + outcome.keyFreshness().newerOffset() + " was already processed by the target group)" : ""));
        this.refusals = outcome.refusals();
        this.keyFreshness = outcome.keyFreshness();
    }

    KeyFreshness keyFreshness() {
        return keyFreshness;
    }

    List<ReplayRefusal> refusals() {
        return refusals;
    }
}

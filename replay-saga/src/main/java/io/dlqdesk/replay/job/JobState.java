package io.dlqdesk.replay.job;

import io.dlqdesk.domain.incident.IncidentId;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/** What the runner's tick thread knows of one job beyond its work list, which lags. Owned by that thread. */
final class JobState {

    final RequestPacer pacer;
    /** Handed to a worker to prepare, then claimed, asked and answered in one unit of work. */
    final Set<IncidentId> asking = new HashSet<>();
    /** Answered and recorded by this runner, not yet in the work list; true: requested (in flight). */
    final Map<IncidentId, Boolean> answered = new HashMap<>();
    /** Could not be prepared or asked: tried again from this time on. */
    final Map<IncidentId, Long> askAgainAt = new HashMap<>();

    JobState(RequestPacer pacer) {
        this.pacer = pacer;
    }

    boolean idle() {
        return asking.isEmpty() && answered.isEmpty() && askAgainAt.isEmpty();
    }
}

package io.dlqdesk.ingest.loop;

import io.dlqdesk.domain.incident.IncidentId;

import java.util.Collection;
import java.util.Set;

/**
 * Which of some incidents the event store already holds, in one read: the ones absent are created without
 * loading anything. Only an optimisation — the store's unique key still refuses a second creation.
 */
@FunctionalInterface
public interface StoredIncidents {

    Set<IncidentId> existing(Collection<IncidentId> ids);
}

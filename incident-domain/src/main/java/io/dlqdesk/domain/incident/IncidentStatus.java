package io.dlqdesk.domain.incident;

/** Lifecycle of an incident: OPEN → ACKED → RESOLVED | DISCARDED; a late re-failure reopens a closed one. */
public enum IncidentStatus {
    OPEN,
    ACKED,
    RESOLVED,
    DISCARDED
}

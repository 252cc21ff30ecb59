package io.dlqdesk.projections.incident;

/** Answered with the distinct original topics of all incidents, as a list of names. */
public record FindIncidentTopicsQuery() {
}

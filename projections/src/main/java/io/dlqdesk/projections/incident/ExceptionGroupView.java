package io.dlqdesk.projections.incident;

/** One exception group: its id (a list filter), class and normalised message, open and total incidents. */
public record ExceptionGroupView(String exceptionGroup, String exceptionClass, String fingerprint, long openIncidents, long incidents) {
}

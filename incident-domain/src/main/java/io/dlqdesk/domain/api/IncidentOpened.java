package io.dlqdesk.domain.api;

import java.time.Instant;

/** An incident was opened for a failure seen for the first time. */
public record IncidentOpened(IncidentId incidentId, FailureKey failureKey, Instant detectedAt) {
}

package io.dlqdesk.domain.api;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.domain.record.RecordLocation;
import java.time.Instant;

/**
 * A failure of the incident arrived again in another DLQ record, equal by content (failure key,
 * eventId, key bytes, value hash, original timestamp and replay headers): nothing new happened to
 * the record, but the delivery is counted, never silently dropped. The same DLQ record read again
 * (after a crash or a rebalance) is not a new delivery and records nothing.
 */
public record DuplicateDeliveryRecorded(IncidentId incidentId, FailureKey failureKey, RecordLocation dlqLocation, Instant detectedAt) {
}

package io.dlqdesk.projections.history;

import io.dlqdesk.domain.record.RecordLocation;
import io.dlqdesk.domain.replay.PublishStatus;

import java.time.Instant;

/**
 * One change of an incident: what happened ({@code eventType}), when it was recorded, who did it and
 * why (operator actions only), the replay attempt it concerns and the publish status it gave that
 * attempt (if any), and a short description. A failure (first, duplicate delivery, re-failure) names its own DLQ record
 * ({@code dlqRecord}; null for every other change). An incident's duplicate deliveries are one entry, at the first one's
 * place and time, naming the last one's DLQ record: {@code deliveries} counts them (1 for every other entry).
 */
public record HistoryEntry(String incidentId, long sequence, String eventType, Instant occurredAt, String principal, String reason,
                           Integer attempt, PublishStatus publishStatus, String detail, RecordLocation dlqRecord, int deliveries) {
}

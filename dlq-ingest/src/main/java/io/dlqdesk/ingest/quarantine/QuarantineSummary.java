package io.dlqdesk.ingest.quarantine;

import java.time.Instant;

/**
 * One quarantined DLQ record in a list: where it was, why it can never become an incident, when, and the sizes of its
 * headers (as stored, JSON), key and value (null: none). Its headers come with {@link FindQuarantinedRecordQuery}: a
 * list of records with megabytes of headers each costs only these few fields per record.
 */
public record QuarantineSummary(String dlqTopic, int dlqPartition, long dlqOffset, String reason, Instant quarantinedAt, Long headersBytes,
                                Integer keyBytes, Integer valueBytes) {
}

package io.dlqdesk.ingest.quarantine;

import java.time.Instant;

/**
 * One quarantined DLQ record in detail, as an operator sees it: where it was, why it can never become an
 * incident, when, and its headers (JSON, values base64). Key and value stay in the table. Lists carry
 * {@link QuarantineSummary}s instead.
 */
public record QuarantinedRecord(String dlqTopic, int dlqPartition, long dlqOffset, String reason, Instant quarantinedAt, String headersJson,
                                Integer keyBytes, Integer valueBytes) {
}

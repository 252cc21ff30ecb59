package io.dlqdesk.ingest.quarantine;

/**
 * A quarantined record with the start of its key and value: {@code keyPrefix}/{@code valuePrefix} are null when the
 * record had no key/value (a tombstone), else at most the asked bytes; {@code record.keyBytes()}/{@code valueBytes()} are
 * the full sizes. {@code timestamp} is the DLQ record's own, epoch milliseconds.
 */
public record QuarantinedRecordContent(QuarantinedRecord record, long timestamp, byte[] keyPrefix, byte[] valuePrefix) {
}

package io.dlqdesk.domain.api;

import java.util.Objects;

/**
 * What one DLQ record says about a failure, decoded by ingest. {@code eventId},
 * {@code originalTimestamp}, {@code valueHash} (null for a tombstone) and {@code exception} are
 * null when the record did not carry them: such a failure still opens an incident, it just cannot
 * be replayed. {@code dlqLocation} is where the DLQ record itself was read.
 */
public record FailedRecord(
        FailureKey failureKey,
        RecordLocation dlqLocation,
        RecordKey key,
        EventId eventId,
        OriginalTimestamp originalTimestamp,
        PayloadHash valueHash,
        ExceptionSummary exception) {

    public FailedRecord {
        Objects.requireNonNull(failureKey, "failureKey");
        Objects.requireNonNull(dlqLocation, "dlqLocation");
        Objects.requireNonNull(key, "key (RecordKey.NONE when the record had none)");
    }
}

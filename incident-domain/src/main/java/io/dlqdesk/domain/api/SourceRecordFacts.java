package io.dlqdesk.domain.api;

import java.util.Objects;

/**
 * What the application read back from the source topic at the recorded location, just before
 * asking for a replay (reading Kafka is a side effect, so it happens outside the aggregate).
 *
 * @param readAt          the location that was read
 * @param locationInRange the topic and partition exist and the offset is within the log's current range
 * @param found           a record came back
 * @param returnedOffset  the offset of the record that came back (compaction can return a later one); -1 if none
 * @param key             its key bytes; null if none came back
 * @param eventId         its eventId; null if it had none or none came back
 * @param valueHash       SHA-256 of its value; null for a tombstone or if none came back
 * @param tombstone       its value was null
 */
public record SourceRecordFacts(
        RecordLocation readAt,
        boolean locationInRange,
        boolean found,
        long returnedOffset,
        RecordKey key,
        EventId eventId,
        PayloadHash valueHash,
        boolean tombstone) {

    public SourceRecordFacts {
        Objects.requireNonNull(readAt, "readAt");
        if (found) {
            Objects.requireNonNull(key, "key of a found record");
            if (returnedOffset < 0) {
                throw new IllegalArgumentException("a found record has an offset >= 0, was " + returnedOffset);
            }
            if (tombstone == (valueHash != null)) {
                throw new IllegalArgumentException("a found record has a value hash exactly when it is not a tombstone");
            }
        } else if (returnedOffset != -1 || key != null || eventId != null || valueHash != null || tombstone) {
            throw new IllegalArgumentException("a record that was not found has no facts");
        }
    }

    public static SourceRecordFacts outOfRange(RecordLocation readAt) {
        return new SourceRecordFacts(readAt, false, false, -1, null, null, null, false);
    }

    public static SourceRecordFacts notFound(RecordLocation readAt) {
        return new SourceRecordFacts(readAt, true, false, -1, null, null, null, false);
    }

    public static SourceRecordFacts found(RecordLocation readAt, long returnedOffset, RecordKey key, EventId eventId,
                                          PayloadHash valueHash) {
        return new SourceRecordFacts(readAt, true, true, returnedOffset, key, eventId, valueHash, false);
    }

    public static SourceRecordFacts tombstone(RecordLocation readAt, long returnedOffset, RecordKey key, EventId eventId) {
        return new SourceRecordFacts(readAt, true, true, returnedOffset, key, eventId, null, true);
    }
}

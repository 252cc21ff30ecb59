package io.dlqdesk.domain.replay;

import io.dlqdesk.domain.InvalidValueException;
import io.dlqdesk.domain.record.EventId;
import io.dlqdesk.domain.record.OriginalTimestamp;
import io.dlqdesk.domain.record.PayloadHash;
import io.dlqdesk.domain.record.RecordKey;
import io.dlqdesk.domain.record.RecordLocation;
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
 * @param timestamp       the record's own timestamp and its type, as the broker keeps them; null if none came back or it has
 *                        none (a record without a timestamp cannot show it is the recorded one)
 * @param retentionMs     the source topic's {@code retention.ms} when it was read: -1 for none; null when it could not be read
 */
public record SourceRecordFacts(
        RecordLocation readAt,
        boolean locationInRange,
        boolean found,
        long returnedOffset,
        RecordKey key,
        EventId eventId,
        PayloadHash valueHash,
        boolean tombstone,
        OriginalTimestamp timestamp,
        Long retentionMs) {

    public SourceRecordFacts {
        Objects.requireNonNull(readAt, "readAt");
        if (retentionMs != null && retentionMs < -1) {
            throw new InvalidValueException("retention.ms is -1 (none) or a duration, was " + retentionMs);
        }
        if (found) {
            Objects.requireNonNull(key, "key of a found record");
            if (returnedOffset < 0) {
                throw new InvalidValueException("a found record has an offset >= 0, was " + returnedOffset);
            }
            if (tombstone == (valueHash != null)) {
                throw new InvalidValueException("a found record has a value hash exactly when it is not a tombstone");
            }
        } else if (returnedOffset != -1 || key != null || eventId != null || valueHash != null || tombstone || timestamp != null) {
            throw new InvalidValueException("a record that was not found has no facts");
        }
    }

    /** The same facts, with the source topic's retention as it was read ({@code retention.ms}: -1 for none, null unknown). */
    public SourceRecordFacts withRetention(Long retentionMs) {
        return new SourceRecordFacts(readAt, locationInRange, found, returnedOffset, key, eventId, valueHash, tombstone, timestamp,
                retentionMs);
    }

    /**
     * When the broker may delete the record that came back: its timestamp plus the topic's retention; null when nothing came
     * back, the topic keeps records without a time limit, or its retention or the record's timestamp is unknown (the read
     * itself showed the record is there now).
     */
    public java.time.Instant retentionEnd() {
        if (!found || timestamp == null || retentionMs == null || retentionMs < 0) {
            return null;
        }
        return timestamp.instant().plusMillis(retentionMs);
    }

    public static SourceRecordFacts outOfRange(RecordLocation readAt) {
        return new SourceRecordFacts(readAt, false, false, -1, null, null, null, false, null, null);
    }

    public static SourceRecordFacts notFound(RecordLocation readAt) {
        return new SourceRecordFacts(readAt, true, false, -1, null, null, null, false, null, null);
    }

    /** A record came back; the topic's retention is not known yet ({@link #withRetention}). */
    public static SourceRecordFacts found(RecordLocation readAt, long returnedOffset, RecordKey key, EventId eventId,
                                          PayloadHash valueHash, OriginalTimestamp timestamp) {
        return new SourceRecordFacts(readAt, true, true, returnedOffset, key, eventId, valueHash, false, timestamp, null);
    }

    public static SourceRecordFacts tombstone(RecordLocation readAt, long returnedOffset, RecordKey key, EventId eventId,
                                              OriginalTimestamp timestamp) {
        return new SourceRecordFacts(readAt, true, true, returnedOffset, key, eventId, null, true, timestamp, null);
    }
}

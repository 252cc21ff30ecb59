package io.dlqdesk.replay.outbox;

import io.dlqdesk.domain.record.PayloadHash;
import io.dlqdesk.domain.record.RecordKey;
import io.dlqdesk.replay.source.SourceRead;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Whether a row's source record, read again before sending, is still the record the replay was accepted for:
 * the same offset (compaction can return the next record), a value with the recorded SHA-256 (a tombstone never
 * is), the recorded key. {@link Unchanged} may be sent; a {@link Refused} record is not.
 */
public sealed interface SourceCheck {

    /** Checks {@code read} (null: the reader gave no answer for the row's location) against what {@code row} recorded. */
    static SourceCheck of(OutboxRow row, SourceRead read) {
        if (read == null) {
            return new Unreadable("source record could not be read: no answer for " + row.source());
        }
        if (read instanceof SourceRead.Unavailable unavailable) {
            return new Unreadable("source record could not be read: " + unavailable.detail());
        }
        if (read instanceof SourceRead.NotThere notThere) {
            // beyond the stable offset, e.g. behind an open transaction: it may become readable
            return notThere.reason() == SourceRead.Reason.AT_OR_AFTER_LOG_END
                    ? new Unreadable("source record not readable yet: " + notThere.detail())
                    : new Changed("source record gone: " + notThere.detail());
        }
        if (read instanceof SourceRead.NothingReadable nothing) {
            return new Changed("source record gone: " + nothing.detail());
        }
        ConsumerRecord<byte[], byte[]> record = ((SourceRead.Found) read).record();
        if (record.offset() != row.source().offset()) {
            return new Changed("source offset " + row.source().offset() + " now returns offset " + record.offset() + " (compacted)");
        }
        if (record.value() == null || !PayloadHash.of(record.value()).equals(row.valueHash())) {
            return new Changed("source value no longer has the recorded SHA-256");
        }
        if (!RecordKey.of(record.key()).equals(row.key())) {
            return new Changed("source key is no longer the recorded key");
        }
        return new Unchanged(record);
    }

    /** Still the recorded record: its replay may be sent. */
    record Unchanged(ConsumerRecord<byte[], byte[]> record) implements SourceCheck {
    }

    /** Not sent this round, and why. */
    sealed interface Refused extends SourceCheck {
        String reason();
    }

    /** The location no longer holds the recorded record (gone, compacted, another value or key): retrying cannot help. */
    record Changed(String reason) implements Refused {
    }

    /** Nothing could be decided about the record now (broker unavailable, not readable yet): a failed try. */
    record Unreadable(String reason) implements Refused {
    }
}

package io.dlqdesk.replay.source;

import io.dlqdesk.domain.record.RecordLocation;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * What reading a record at an exact location gave. {@link Found} and {@link NotThere} are facts about
 * the log; {@link Unavailable} is not (the broker could not be asked), so nothing may be decided from it.
 */
public sealed interface SourceRead {

    RecordLocation requested();

    /**
     * A record came back. Its offset can be later than the requested one: compaction (or an aborted
     * transaction) left a gap there, and the consumer returns the next record.
     */
    record Found(RecordLocation requested, ConsumerRecord<byte[], byte[]> record) implements SourceRead {

        public boolean atRequestedOffset() {
            return record.offset() == requested.offset();
        }
    }

    /** The location is not in the log: {@code reason} says whether the topic, the partition or the offset is missing. */
    record NotThere(RecordLocation requested, Reason reason, String detail) implements SourceRead {
    }

    /** The offset is within the log's range, but nothing readable is left from there to the end. */
    record NothingReadable(RecordLocation requested, String detail) implements SourceRead {
    }

    /** The broker could not be asked in time, or refused; try again later. */
    record Unavailable(RecordLocation requested, String detail) implements SourceRead {
    }

    enum Reason {
        TOPIC_MISSING,
        PARTITION_MISSING,
        BELOW_LOG_START,
        AT_OR_AFTER_LOG_END
    }
}

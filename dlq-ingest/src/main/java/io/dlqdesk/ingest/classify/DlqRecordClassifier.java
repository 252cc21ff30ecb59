package io.dlqdesk.ingest.classify;

import io.dlqdesk.domain.record.BoundedText;
import io.dlqdesk.domain.record.ExceptionSummary;
import io.dlqdesk.domain.record.FailedRecord;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.domain.record.OriginalTimestamp;
import io.dlqdesk.domain.record.PayloadHash;
import io.dlqdesk.domain.record.RecordKey;
import io.dlqdesk.domain.record.RecordLocation;
import io.dlqdesk.domain.record.TimestampType;
import io.dlqdesk.domain.replay.ReplayHeaders;
import io.dlqdesk.record.BadHeaderException;
import io.dlqdesk.record.DltHeaderReader;
import io.dlqdesk.record.EventIdExtractor;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;

import java.util.Objects;

import static io.dlqdesk.record.DltHeaders.*;

/**
 * Decides what a DLQ record is from its own bytes and the settings only (no I/O), so it can run
 * before the record takes a worker slot. Never throws: whatever cannot be decided is {@code Malformed},
 * so a record is quarantined rather than lost.
 */
public final class DlqRecordClassifier {

    // enough bytes for any class name that survives ExceptionSummary's bound (<= 3 bytes per char + 1
    // to trigger the truncation mark); decoding more would only be thrown away
    private static final int MAX_CLASS_BYTES = 3 * ExceptionSummary.MAX_CLASS_LENGTH + 3;

    private final ClassifierSettings settings;
    private final EventIdExtractor eventIds;

    public DlqRecordClassifier(ClassifierSettings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.eventIds = new EventIdExtractor(settings.eventIds());
    }

    public Classification classify(ConsumerRecord<byte[], byte[]> dlqRecord) {
        try {
            return decide(dlqRecord);
        } catch (BadHeaderException e) {
            return new Classification.Malformed(e.getMessage());
        } catch (RuntimeException e) { // a bug must quarantine the record, not drop it or stall the partition
            return new Classification.Malformed("classifier error: " + e.getClass().getName() + ": " + e.getMessage());
        }
    }

    private Classification decide(ConsumerRecord<byte[], byte[]> dlqRecord) throws BadHeaderException {
        if (dlqRecord == null) {
            return new Classification.Malformed("no record");
        }
        DltHeaderReader headers = new DltHeaderReader(
                dlqRecord.headers() == null ? new RecordHeaders() : dlqRecord.headers());
        // the group decides everything else: without it the record cannot be attributed, so it is quarantined
        String group = headers.requiredIdentifier(ORIGINAL_CONSUMER_GROUP, FailureKey.MAX_GROUP_LENGTH);
        if (!settings.owns(group)) {
            return new Classification.NotOurs(group);
        }
        if (dlqRecord.key() != null && dlqRecord.key().length > RecordKey.MAX_BYTES) { // kept whole or not at all: it is matched byte for byte
            return new Classification.Malformed("record key: " + dlqRecord.key().length + " bytes, longer than " + RecordKey.MAX_BYTES);
        }
        String replayProblem = replayHeaderProblem(headers);
        if (replayProblem != null) {
            return new Classification.Malformed(replayProblem);
        }
        OriginalLocation original = originalLocation(headers);
        byte[] value = dlqRecord.value();
        RecordLocation dlqLocation = new RecordLocation(dlqRecord.topic(), dlqRecord.partition(), dlqRecord.offset());
        RecordKey key = RecordKey.of(dlqRecord.key());
        var eventId = eventIds.extract(original.topic(), headers, value);
        OriginalTimestamp timestamp = originalTimestamp(headers);
        PayloadHash hash = value == null ? null : PayloadHash.of(value);
        ExceptionSummary exception = exception(headers);
        FailedRecord failure = original.problem() == null
                ? new FailedRecord(new FailureKey(original.topic(), original.partition(), original.offset(), group), dlqLocation, key,
                        eventId, timestamp, hash, exception)
                : FailedRecord.withUnknownLocation(group, dlqLocation, key, eventId, timestamp, hash, exception, original.problem());
        ReplayHeaders replay = replayHeaders(headers);
        return replay == null ? new Classification.Failure(failure) : new Classification.RetryFailure(failure, replay);
    }

    /** The original location's headers, each judged; {@code problem} names every one that is missing or undecodable. */
    private record OriginalLocation(String topic, int partition, long offset, String problem) {
    }

    private static OriginalLocation originalLocation(DltHeaderReader headers) {
        StringBuilder problems = new StringBuilder();
        String topic = null;
        int partition = -1;
        long offset = -1;
        try {
            topic = headers.requiredTopic(ORIGINAL_TOPIC);
        } catch (BadHeaderException e) {
            problems.append(e.getMessage());
        }
        try {
            partition = headers.requiredNonNegativeInt(ORIGINAL_PARTITION);
        } catch (BadHeaderException e) {
            problems.append(problems.isEmpty() ? "" : "; ").append(e.getMessage());
        }
        try {
            offset = headers.requiredNonNegativeLong(ORIGINAL_OFFSET);
        } catch (BadHeaderException e) {
            problems.append(problems.isEmpty() ? "" : "; ").append(e.getMessage());
        }
        String problem = problems.isEmpty() ? null : BoundedText.truncate(problems.toString(), FailedRecord.MAX_REASON_LENGTH);
        return new OriginalLocation(topic, partition, offset, problem);
    }

    /** A type Kafka does not have does not hide the instant: it is kept with the raw text (UNKNOWN). */
    private static OriginalTimestamp originalTimestamp(DltHeaderReader headers) throws BadHeaderException {
        Long epochMilli = headers.optionalNonNegativeLong(ORIGINAL_TIMESTAMP);
        if (epochMilli == null) {
            return null;
        }
        if (epochMilli > OriginalTimestamp.LATEST.toEpochMilli()) {
            throw new BadHeaderException(ORIGINAL_TIMESTAMP, epochMilli + " ms is after " + OriginalTimestamp.LATEST);
        }
        if (!headers.has(ORIGINAL_TIMESTAMP_TYPE)) {
            return OriginalTimestamp.ofEpochMilli(epochMilli, TimestampType.CREATE_TIME);
        }
        String text = headers.lenientText(ORIGINAL_TIMESTAMP_TYPE, 4 * OriginalTimestamp.MAX_RAW_TYPE_LENGTH);
        if ("CreateTime".equals(text)) {
            return OriginalTimestamp.ofEpochMilli(epochMilli, TimestampType.CREATE_TIME);
        }
        if ("LogAppendTime".equals(text)) {
            return OriginalTimestamp.ofEpochMilli(epochMilli, TimestampType.LOG_APPEND_TIME);
        }
        return OriginalTimestamp.ofEpochMilliWithUnknownType(epochMilli,
                BoundedText.truncate(text == null ? "" : text, OriginalTimestamp.MAX_RAW_TYPE_LENGTH));
    }


    /** The application's exception is the cause; the top one is usually Spring's wrapper. */
    private static ExceptionSummary exception(DltHeaderReader headers) {
        String cause = headers.lenientText(EXCEPTION_CAUSE_FQCN, MAX_CLASS_BYTES);
        String exceptionClass = cause != null && !cause.isBlank()
                ? cause
                : headers.lenientText(EXCEPTION_FQCN, MAX_CLASS_BYTES);
        if (exceptionClass == null || exceptionClass.isBlank()) {
            return null;
        }
        // the domain refuses, not cuts, a long class: shown, never matched on, so a cut one still says what failed
        exceptionClass = BoundedText.truncate(exceptionClass, ExceptionSummary.MAX_CLASS_LENGTH);
        return ExceptionSummary.ofMessageBytes(exceptionClass, headers.bytes(EXCEPTION_MESSAGE));
    }

    /** The first correlation header that is too long (or holds control characters) to be kept whole, or null. */
    private static String replayHeaderProblem(DltHeaderReader headers) {
        for (String name : new String[] {REPLAY_ROOT_INCIDENT_ID, REPLAY_ATTEMPT, REPLAY_OWNER, REPLAY_TARGET_GROUP}) {
            byte[] value = headers.bytes(name);
            if (value != null && value.length > 4 * ReplayHeaders.MAX_VALUE_LENGTH) {
                return name + ": " + value.length + " bytes, longer than " + ReplayHeaders.MAX_VALUE_LENGTH + " characters can be";
            }
            String problem = ReplayHeaders.problem(headers.lenientText(name, Integer.MAX_VALUE));
            if (problem != null) {
                return name + ": " + problem;
            }
        }
        return null;
    }

    /** Null unless at least one correlation header is there; values raw, for the domain to judge. */
    private static ReplayHeaders replayHeaders(DltHeaderReader headers) {
        if (!headers.has(REPLAY_ROOT_INCIDENT_ID) && !headers.has(REPLAY_ATTEMPT)
                && !headers.has(REPLAY_OWNER) && !headers.has(REPLAY_TARGET_GROUP)) {
            return null;
        }
        return new ReplayHeaders(
                headers.lenientText(REPLAY_ROOT_INCIDENT_ID, Integer.MAX_VALUE),
                headers.lenientText(REPLAY_ATTEMPT, Integer.MAX_VALUE),
                headers.lenientText(REPLAY_OWNER, Integer.MAX_VALUE),
                headers.lenientText(REPLAY_TARGET_GROUP, Integer.MAX_VALUE));
    }
}

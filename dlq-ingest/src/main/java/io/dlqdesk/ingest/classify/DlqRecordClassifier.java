package io.dlqdesk.ingest.classify;

import io.dlqdesk.domain.api.ExceptionSummary;
import io.dlqdesk.domain.api.FailedRecord;
import io.dlqdesk.domain.api.FailureKey;
import io.dlqdesk.domain.api.OriginalTimestamp;
import io.dlqdesk.domain.api.PayloadHash;
import io.dlqdesk.domain.api.RecordKey;
import io.dlqdesk.domain.api.RecordLocation;
import io.dlqdesk.domain.api.ReplayHeaders;
import io.dlqdesk.domain.api.TimestampType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;

import java.util.Objects;

import static io.dlqdesk.ingest.classify.DltHeaders.*;

/**
 * Decides what a DLQ record is from its own bytes and the settings only (no I/O), so it can run
 * before the record takes a worker slot. Never throws: whatever cannot be decided is {@code Malformed},
 * so a record is quarantined rather than lost.
 */
public final class DlqRecordClassifier {

    // enough bytes for any text that survives ExceptionSummary's bounds (<= 3 bytes per char + 1 to
    // trigger the truncation mark); decoding more would only be thrown away
    private static final int MAX_MESSAGE_BYTES = 3 * ExceptionSummary.MAX_MESSAGE_LENGTH + 3;
    private static final int MAX_CLASS_BYTES = 3 * ExceptionSummary.MAX_CLASS_LENGTH + 3;

    private final ClassifierSettings settings;
    private final EventIdExtractor eventIds;

    public DlqRecordClassifier(ClassifierSettings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.eventIds = new EventIdExtractor(settings);
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
        String topic = headers.requiredTopic(ORIGINAL_TOPIC);
        int partition = headers.requiredNonNegativeInt(ORIGINAL_PARTITION);
        long offset = headers.requiredNonNegativeLong(ORIGINAL_OFFSET);
        String group = headers.requiredText(ORIGINAL_CONSUMER_GROUP);
        if (!settings.owns(group)) {
            return new Classification.NotOurs(group);
        }
        byte[] value = dlqRecord.value();
        FailedRecord failure = new FailedRecord(
                new FailureKey(topic, partition, offset, group),
                new RecordLocation(dlqRecord.topic(), dlqRecord.partition(), dlqRecord.offset()),
                RecordKey.of(dlqRecord.key()),
                eventIds.extract(topic, headers, value),
                originalTimestamp(headers),
                value == null ? null : PayloadHash.of(value),
                exception(headers));
        ReplayHeaders replay = replayHeaders(headers);
        return replay == null ? new Classification.Failure(failure) : new Classification.RetryFailure(failure, replay);
    }

    private static OriginalTimestamp originalTimestamp(DltHeaderReader headers) throws BadHeaderException {
        Long epochMilli = headers.optionalNonNegativeLong(ORIGINAL_TIMESTAMP);
        TimestampType type = timestampType(headers); // judged even without a timestamp: corrupt is corrupt
        if (epochMilli == null) {
            return null;
        }
        return OriginalTimestamp.ofEpochMilli(epochMilli, type == null ? TimestampType.CREATE_TIME : type);
    }

    private static TimestampType timestampType(DltHeaderReader headers) throws BadHeaderException {
        if (!headers.has(ORIGINAL_TIMESTAMP_TYPE)) {
            return null;
        }
        String text = headers.lenientText(ORIGINAL_TIMESTAMP_TYPE, 32);
        if ("CreateTime".equals(text)) {
            return TimestampType.CREATE_TIME;
        }
        if ("LogAppendTime".equals(text)) {
            return TimestampType.LOG_APPEND_TIME;
        }
        throw new BadHeaderException(ORIGINAL_TIMESTAMP_TYPE,
                text == null ? "present without a value" : "unknown timestamp type '" + text + "'");
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
        if (exceptionClass.length() > ExceptionSummary.MAX_CLASS_LENGTH) { // the domain refuses, not cuts, a long class
            int end = ExceptionSummary.MAX_CLASS_LENGTH - 1;
            if (Character.isLowSurrogate(exceptionClass.charAt(end))) {
                end--; // never split a surrogate pair
            }
            exceptionClass = exceptionClass.substring(0, end) + "…";
        }
        return ExceptionSummary.truncating(exceptionClass, headers.lenientText(EXCEPTION_MESSAGE, MAX_MESSAGE_BYTES));
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

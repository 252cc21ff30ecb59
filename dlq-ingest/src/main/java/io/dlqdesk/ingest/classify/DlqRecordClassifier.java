package io.dlqdesk.ingest.classify;

import io.dlqdesk.domain.record.BoundedText;
import io.dlqdesk.domain.record.DlqDialect;
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
import io.dlqdesk.record.ConnectDlqHeaders;
import io.dlqdesk.record.DltHeaderReader;
import io.dlqdesk.record.EventIdExtractor;
import io.dlqdesk.record.StackTraceText;
import io.dlqdesk.record.StreamsDlqHeaders;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

import java.util.List;
import java.util.Locale;
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
    // enough for any message that survives ExceptionSummary's bound, and the truncation mark
    private static final int MAX_MESSAGE_BYTES = 3 * ExceptionSummary.MAX_MESSAGE_LENGTH + 3;
    /** Exceptions Kafka's writers wrap the failing one in: the incident shows the one inside. */
    private static final List<String> KAFKA_WRAPPERS = List.of("org.apache.kafka.connect.errors.", "org.apache.kafka.streams.errors.StreamsException");
    private static final String SPRING_PREFIX = "kafka_dlt-";
    /** The writers known by a prefix of their headers' names. */
    private static final List<DlqDialect> PREFIXED = List.of(DlqDialect.SPRING, DlqDialect.CONNECT, DlqDialect.STREAMS);
    /** The raw type of an original timestamp taken from a Connect or Streams DLQ record (OriginalTimestamp.MAX_RAW_TYPE_LENGTH). */
    static final String NO_TYPE_HEADER = "none written; the DLQ record's CreateTime";
    /** The raw type of an original timestamp read from a custom mapping's header. */
    static final String CUSTOM_TYPE = "none written; the mapped timestamp header";
    static final String NO_WRITER = "no header of a known DLQ writer (kafka_dlt-*, __connect.errors.*, __streams.errors.*): the failing"
            + " group and the original record are unknown; a Kafka Connect DLQ needs errors.deadletterqueue.context.headers.enable=true";

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
        Headers recordHeaders = dlqRecord.headers() == null ? new RecordHeaders() : dlqRecord.headers();
        DltHeaderReader headers = new DltHeaderReader(recordHeaders);
        TopicDialect topic = settings.dialectOf(dlqRecord.topic());
        DlqDialect dialect = topic.dialect() == DialectSetting.AUTO ? lastWriter(recordHeaders) : topic.dialect().dialect();
        if (dialect == null) {
            return new Classification.Malformed(NO_WRITER);
        }
        if ((dialect == DlqDialect.CONNECT || dialect == DlqDialect.STREAMS) && !hasPrefix(recordHeaders, prefix(dialect))) {
            return new Classification.Malformed("the topic is read as a " + dialect.name().toLowerCase(Locale.ROOT) + " DLQ, but the record has no "
                    + prefix(dialect) + "* header" + (dialect == DlqDialect.CONNECT
                    ? " (the connector needs errors.deadletterqueue.context.headers.enable=true)" : ""));
        }
        // the group decides everything else: without it the record cannot be attributed, so it is quarantined
        String group = failingGroup(dialect, headers, topic, dlqRecord.topic());
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
        OriginalLocation original = switch (dialect) {
            case SPRING -> originalLocation(() -> headers.requiredTopic(ORIGINAL_TOPIC), () -> headers.requiredNonNegativeInt(ORIGINAL_PARTITION),
                    () -> headers.requiredNonNegativeLong(ORIGINAL_OFFSET));
            case CONNECT -> originalLocation(() -> headers.requiredTopic(ConnectDlqHeaders.TOPIC),
                    () -> headers.requiredDecimalInt(ConnectDlqHeaders.PARTITION), () -> headers.requiredDecimalLong(ConnectDlqHeaders.OFFSET));
            case STREAMS -> originalLocation(() -> headers.requiredTopic(StreamsDlqHeaders.TOPIC),
                    () -> headers.requiredDecimalInt(StreamsDlqHeaders.PARTITION), () -> headers.requiredDecimalLong(StreamsDlqHeaders.OFFSET));
            case CUSTOM -> customLocation(headers, topic.headers());
        };
        byte[] value = dlqRecord.value();
        RecordLocation dlqLocation = new RecordLocation(dlqRecord.topic(), dlqRecord.partition(), dlqRecord.offset());
        RecordKey key = RecordKey.of(dlqRecord.key());
        var eventId = eventIds.extract(original.topic(), headers, value);
        OriginalTimestamp timestamp = switch (dialect) {
            case SPRING -> originalTimestamp(headers);
            case CONNECT, STREAMS -> dlqRecordTimestamp(dlqRecord);
            case CUSTOM -> topic.headers().timestamp() != null ? customTimestamp(headers, topic.headers())
                    : topic.headers().recordTimestampIsSource() ? dlqRecordTimestamp(dlqRecord) : null;
        };
        PayloadHash hash = value == null ? null : PayloadHash.of(value);
        ExceptionSummary exception = switch (dialect) {
            case SPRING -> exception(headers);
            case CONNECT -> exception(headers, ConnectDlqHeaders.EXCEPTION_STACKTRACE, ConnectDlqHeaders.EXCEPTION_CLASS,
                    ConnectDlqHeaders.EXCEPTION_MESSAGE);
            case STREAMS -> exception(headers, StreamsDlqHeaders.STACKTRACE, StreamsDlqHeaders.EXCEPTION, StreamsDlqHeaders.MESSAGE);
            case CUSTOM -> exception(headers, topic.headers().stackTrace(), topic.headers().exceptionClass(), topic.headers().exceptionMessage());
        };
        FailedRecord failure = (original.problem() == null
                ? new FailedRecord(new FailureKey(original.topic(), original.partition(), original.offset(), group), dlqLocation, key,
                        eventId, timestamp, hash, exception)
                : FailedRecord.withUnknownLocation(group, dlqLocation, key, eventId, timestamp, hash, exception, original.problem()))
                .readBy(dialect);
        ReplayHeaders replay = replayHeaders(headers);
        return replay == null ? new Classification.Failure(failure) : new Classification.RetryFailure(failure, replay);
    }

    /**
     * The failing group: Spring's header; a Connect sink's {@code connect-<connector name>} unless the topic's setting names
     * it; for Kafka Streams only the topic's setting (the application id is in no header).
     */
    private static String failingGroup(DlqDialect dialect, DltHeaderReader headers, TopicDialect topic, String dlqTopic)
            throws BadHeaderException {
        return switch (dialect) {
            case SPRING -> headers.requiredIdentifier(ORIGINAL_CONSUMER_GROUP, FailureKey.MAX_GROUP_LENGTH);
            case CONNECT -> topic.consumerGroup() != null ? topic.consumerGroup() : ConnectDlqHeaders.defaultGroup(headers.requiredIdentifier(
                    ConnectDlqHeaders.CONNECTOR_NAME, FailureKey.MAX_GROUP_LENGTH - ConnectDlqHeaders.defaultGroup("").length()));
            case STREAMS -> {
                if (topic.consumerGroup() == null) {
                    throw new BadHeaderException(StreamsDlqHeaders.PREFIX + "*", "a Kafka Streams dead-letter record names no application"
                            + " id, the failing group: set dlqdesk.ingest.dlq-topics[" + dlqTopic + "].consumer-group");
                }
                yield topic.consumerGroup();
            }
            case CUSTOM -> topic.consumerGroup() != null ? topic.consumerGroup()
                    : headers.requiredIdentifier(topic.headers().consumerGroup(), FailureKey.MAX_GROUP_LENGTH);
        };
    }

    /** The writer whose headers come last: each writer copies the record's headers first and adds its own after them. */
    static DlqDialect lastWriter(Headers headers) {
        DlqDialect last = null;
        for (Header header : headers) {
            for (DlqDialect writer : PREFIXED) {
                if (header.key().startsWith(prefix(writer))) {
                    last = writer;
                }
            }
        }
        return last;
    }

    private static boolean hasPrefix(Headers headers, String prefix) {
        for (Header header : headers) {
            if (header.key().startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    private static String prefix(DlqDialect dialect) {
        return switch (dialect) {
            case SPRING -> SPRING_PREFIX;
            case CONNECT -> ConnectDlqHeaders.PREFIX;
            case STREAMS -> StreamsDlqHeaders.PREFIX;
            case CUSTOM -> throw new IllegalArgumentException("a custom mapping names its headers one by one");
        };
    }

    private static OriginalLocation customLocation(DltHeaderReader headers, HeaderMapping mapping) {
        boolean text = mapping.numbers() == HeaderMapping.Numbers.TEXT;
        return originalLocation(() -> headers.requiredTopic(mapping.topic()),
                () -> text ? headers.requiredDecimalInt(mapping.partition()) : headers.requiredNonNegativeInt(mapping.partition()),
                () -> text ? headers.requiredDecimalLong(mapping.offset()) : headers.requiredNonNegativeLong(mapping.offset()));
    }

    /** The mapped timestamp header: absent, no original timestamp; present but not a time, quarantined as Spring's would be. */
    private static OriginalTimestamp customTimestamp(DltHeaderReader headers, HeaderMapping mapping) throws BadHeaderException {
        String name = mapping.timestamp();
        if (!headers.has(name)) {
            return null;
        }
        long epochMilli = mapping.numbers() == HeaderMapping.Numbers.TEXT ? headers.requiredDecimalLong(name) : headers.requiredNonNegativeLong(name);
        return OriginalTimestamp.ofEpochMilliWithUnknownType(notAfterLatest(name, epochMilli), CUSTOM_TYPE);
    }

    /** The original location's headers, each judged; {@code problem} names every one that is missing or undecodable. */
    private record OriginalLocation(String topic, int partition, long offset, String problem) {
    }

    @FunctionalInterface
    private interface HeaderValue<T> {
        T read() throws BadHeaderException;
    }

    private static OriginalLocation originalLocation(HeaderValue<String> topicHeader, HeaderValue<Integer> partitionHeader,
                                                     HeaderValue<Long> offsetHeader) {
        StringBuilder problems = new StringBuilder();
        String topic = null;
        int partition = -1;
        long offset = -1;
        try {
            topic = topicHeader.read();
        } catch (BadHeaderException e) {
            problems.append(e.getMessage());
        }
        try {
            partition = partitionHeader.read();
        } catch (BadHeaderException e) {
            problems.append(problems.isEmpty() ? "" : "; ").append(e.getMessage());
        }
        try {
            offset = offsetHeader.read();
        } catch (BadHeaderException e) {
            problems.append(problems.isEmpty() ? "" : "; ").append(e.getMessage());
        }
        String problem = problems.isEmpty() ? null : BoundedText.truncate(problems.toString(), FailedRecord.MAX_REASON_LENGTH);
        return new OriginalLocation(topic, partition, offset, problem);
    }

    /**
     * Kafka Connect and Kafka Streams write no timestamp header: they give the DLQ record the source record's timestamp. It is
     * the original one only while the DLQ topic keeps what the producer sent (CreateTime), and its type is written nowhere. A
     * DLQ topic that stamps LogAppendTime overwrote it: no original timestamp, so no replay deadline (replay refused).
     */
    private static OriginalTimestamp dlqRecordTimestamp(ConsumerRecord<byte[], byte[]> dlqRecord) {
        if (dlqRecord.timestampType() != org.apache.kafka.common.record.TimestampType.CREATE_TIME || dlqRecord.timestamp() < 0
                || dlqRecord.timestamp() > OriginalTimestamp.LATEST.toEpochMilli()) {
            return null;
        }
        return OriginalTimestamp.ofEpochMilliWithUnknownType(dlqRecord.timestamp(), NO_TYPE_HEADER);
    }

    /**
     * The exception a writer names, or, when that is a Kafka wrapper (Connect's {@code DataException} around a converter's
     * failure, a {@code StreamsException}), the one it wraps: the first {@code Caused by:} of the stack trace, with that
     * line's message. Without a class header, the trace's own first line is the exception.
     */
    private static ExceptionSummary exception(DltHeaderReader headers, String stackTrace, String exceptionClassHeader, String messageHeader) {
        List<StackTraceText.Thrown> chain = stackTrace == null ? List.of()
                : StackTraceText.chain(headers.bytes(stackTrace), MAX_CLASS_BYTES, MAX_MESSAGE_BYTES);
        String named = exceptionClassHeader == null ? null : headers.lenientText(exceptionClassHeader, MAX_CLASS_BYTES);
        StackTraceText.Thrown top = named != null && !named.isBlank()
                ? new StackTraceText.Thrown(named, messageHeader == null ? null : headers.bytes(messageHeader))
                : chain.isEmpty() ? null : chain.get(0);
        if (top == null) {
            return null;
        }
        StackTraceText.Thrown shown = isWrapper(top.exceptionClass()) && chain.size() > 1 ? chain.get(1) : top;
        return ExceptionSummary.ofMessageBytes(BoundedText.truncate(shown.exceptionClass(), ExceptionSummary.MAX_CLASS_LENGTH), shown.message());
    }

    private static boolean isWrapper(String exceptionClass) {
        return KAFKA_WRAPPERS.stream().anyMatch(exceptionClass::startsWith);
    }

    /** A header's time after the latest the desk can keep is forged or broken: the record is quarantined, naming it. */
    private static long notAfterLatest(String header, long epochMilli) throws BadHeaderException {
        if (epochMilli > OriginalTimestamp.LATEST.toEpochMilli()) {
            throw new BadHeaderException(header, epochMilli + " ms is after " + OriginalTimestamp.LATEST);
        }
        return epochMilli;
    }

    /** A type Kafka does not have does not hide the instant: it is kept with the raw text (UNKNOWN). */
    private static OriginalTimestamp originalTimestamp(DltHeaderReader headers) throws BadHeaderException {
        Long epochMilli = headers.optionalNonNegativeLong(ORIGINAL_TIMESTAMP);
        if (epochMilli == null) {
            return null;
        }
        notAfterLatest(ORIGINAL_TIMESTAMP, epochMilli);
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

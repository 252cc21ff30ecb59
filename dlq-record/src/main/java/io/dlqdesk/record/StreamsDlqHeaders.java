package io.dlqdesk.record;

/**
 * Headers Kafka Streams adds to its dead-letter records (KIP-1034, kafka-streams 4.2 and later, when
 * {@code errors.dead.letter.queue.topic.name} is set). Every value is UTF-8 text, numbers in decimal. No header names the
 * application id, which is the failing consumer group: the desk is told it with the DLQ topic.
 */
public final class StreamsDlqHeaders {

    public static final String PREFIX = "__streams.errors.";
    /** After a repartition, the internal repartition topic; absent or null for a punctuation. */
    public static final String TOPIC = PREFIX + "topic";
    /** {@code -1} for a punctuation. */
    public static final String PARTITION = PREFIX + "partition";
    /** {@code -1} for a punctuation. */
    public static final String OFFSET = PREFIX + "offset";
    public static final String EXCEPTION = PREFIX + "exception";
    /** A null value when the exception had no message. */
    public static final String MESSAGE = PREFIX + "message";
    public static final String STACKTRACE = PREFIX + "stacktrace";

    private StreamsDlqHeaders() {
    }
}

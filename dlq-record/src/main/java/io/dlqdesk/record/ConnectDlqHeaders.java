package io.dlqdesk.record;

/**
 * Headers a Kafka Connect sink connector adds to its dead-letter records when
 * {@code errors.deadletterqueue.context.headers.enable=true} ({@code DeadLetterQueueReporter}, connect-runtime 3.9–4.x).
 * Every value is UTF-8 text, numbers in decimal. No header names the consumer group: it is {@code connect-<connector name>}
 * unless the connector overrides it.
 */
public final class ConnectDlqHeaders {

    public static final String PREFIX = "__connect.errors.";
    public static final String TOPIC = PREFIX + "topic";
    public static final String PARTITION = PREFIX + "partition";
    public static final String OFFSET = PREFIX + "offset";
    public static final String CONNECTOR_NAME = PREFIX + "connector.name";
    public static final String TASK_ID = PREFIX + "task.id";
    public static final String STAGE = PREFIX + "stage";
    /** The converter, transformation or task class that failed. */
    public static final String CLASS_NAME = PREFIX + "class.name";
    /** Usually Connect's own wrapper (DataException); the application's cause is only in the stack trace. */
    public static final String EXCEPTION_CLASS = PREFIX + "exception.class.name";
    /** A null value when the exception had no message. */
    public static final String EXCEPTION_MESSAGE = PREFIX + "exception.message";
    public static final String EXCEPTION_STACKTRACE = PREFIX + "exception.stacktrace";

    /** The group Connect's worker gives a sink connector's consumer ({@code SinkUtils.consumerGroupId}). */
    public static String defaultGroup(String connectorName) {
        return "connect-" + connectorName;
    }

    private ConnectDlqHeaders() {
    }
}

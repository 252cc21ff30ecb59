package io.dlqdesk.record;

import io.dlqdesk.domain.replay.ReplayHeaders;

/**
 * Names of the headers a DLQ record is classified by: Spring Kafka's {@code DeadLetterPublishingRecoverer}
 * headers (its {@code KafkaHeaders.DLT_*} values, spelled out because this module does not depend on
 * spring-kafka) and the replay correlation headers, whose names the domain owns.
 */
public final class DltHeaders {

    public static final String ORIGINAL_TOPIC = "kafka_dlt-original-topic";
    /** 4-byte big-endian int. */
    public static final String ORIGINAL_PARTITION = "kafka_dlt-original-partition";
    /** 8-byte big-endian long. */
    public static final String ORIGINAL_OFFSET = "kafka_dlt-original-offset";
    /** 8-byte big-endian long, epoch milliseconds. */
    public static final String ORIGINAL_TIMESTAMP = "kafka_dlt-original-timestamp";
    /** UTF-8 {@code CreateTime} or {@code LogAppendTime}. */
    public static final String ORIGINAL_TIMESTAMP_TYPE = "kafka_dlt-original-timestamp-type";
    public static final String ORIGINAL_CONSUMER_GROUP = "kafka_dlt-original-consumer-group";
    /** Usually Spring's ListenerExecutionFailedException: the cause header names the real failure. */
    public static final String EXCEPTION_FQCN = "kafka_dlt-exception-fqcn";
    public static final String EXCEPTION_CAUSE_FQCN = "kafka_dlt-exception-cause-fqcn";
    /** Absent when the exception had no message. */
    public static final String EXCEPTION_MESSAGE = "kafka_dlt-exception-message";
    public static final String EXCEPTION_STACKTRACE = "kafka_dlt-exception-stacktrace";

    public static final String REPLAY_ROOT_INCIDENT_ID = ReplayHeaders.ROOT_INCIDENT_ID;
    public static final String REPLAY_ATTEMPT = ReplayHeaders.ATTEMPT;
    public static final String REPLAY_OWNER = ReplayHeaders.OWNER;
    public static final String REPLAY_TARGET_GROUP = ReplayHeaders.TARGET_GROUP;

    private DltHeaders() {
    }
}

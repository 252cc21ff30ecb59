package io.dlqdesk.ingest.classify;

import io.dlqdesk.domain.record.BoundedText;
import io.dlqdesk.domain.record.FailureKey;

/**
 * How the records of one DLQ topic are read. {@code consumerGroup} is the failing group where the writer's headers do not
 * name it: required for Kafka Streams (its application id), optional for Kafka Connect (its {@code connect-<connector>}
 * default, unless the connector overrides {@code consumer.override.group.id}) and for a custom mapping (instead of its
 * group header); a Spring record's own header wins. {@code headers} is the custom dialect's mapping, and only its.
 */
public record TopicDialect(DialectSetting dialect, String consumerGroup, HeaderMapping headers) {

    public TopicDialect {
        dialect = dialect == null ? DialectSetting.AUTO : dialect;
        if (consumerGroup != null) {
            String problem = BoundedText.identifierProblem(consumerGroup, FailureKey.MAX_GROUP_LENGTH);
            if (problem != null) {
                throw new IllegalArgumentException("consumer-group: " + problem);
            }
        }
        if (dialect == DialectSetting.SPRING && consumerGroup != null) {
            throw new IllegalArgumentException("consumer-group does not apply to the spring dialect: Spring Kafka writes the failing group"
                    + " in kafka_dlt-original-consumer-group");
        }
        if (dialect == DialectSetting.STREAMS && consumerGroup == null) {
            throw new IllegalArgumentException("the streams dialect needs consumer-group, the Streams application's application.id:"
                    + " Kafka Streams writes it in no header");
        }
        if (dialect == DialectSetting.CUSTOM && headers == null) {
            throw new IllegalArgumentException("the custom dialect needs headers (at least headers.topic, headers.partition, headers.offset)");
        }
        if (dialect != DialectSetting.CUSTOM && headers != null) {
            throw new IllegalArgumentException("headers name a custom dialect's headers: set dialect: custom, or leave them out");
        }
        if (dialect == DialectSetting.CUSTOM && consumerGroup == null && headers.consumerGroup() == null) {
            throw new IllegalArgumentException("the custom dialect needs the failing group: headers.consumer-group (the header that"
                    + " holds it) or consumer-group (the group itself)");
        }
    }

    // factories, not constructors: a second constructor would keep Spring Boot from binding the settings to this record

    public static TopicDialect of(DialectSetting dialect, String consumerGroup) {
        return new TopicDialect(dialect, consumerGroup, null);
    }

    public static TopicDialect of(DialectSetting dialect) {
        return new TopicDialect(dialect, null, null);
    }
}

package io.dlqdesk.ingest.classify;

import io.dlqdesk.domain.record.BoundedText;
import io.dlqdesk.domain.record.FailureKey;

/**
 * How the records of one DLQ topic are read. {@code consumerGroup} is the failing group where the writer's headers do not
 * name it: required for Kafka Streams (its application id), optional for Kafka Connect (its {@code connect-<connector>}
 * default, unless the connector overrides {@code consumer.override.group.id}); a Spring record's own header wins.
 */
public record TopicDialect(DialectSetting dialect, String consumerGroup) {

    public TopicDialect {
        dialect = dialect == null ? DialectSetting.AUTO : dialect;
        if (consumerGroup != null) {
            String problem = BoundedText.identifierProblem(consumerGroup, FailureKey.MAX_GROUP_LENGTH);
            if (problem != null) {
                throw new IllegalArgumentException("consumer-group: " + problem);
            }
        }
    }

    public static TopicDialect of(DialectSetting dialect) {
        return new TopicDialect(dialect, null);
    }
}

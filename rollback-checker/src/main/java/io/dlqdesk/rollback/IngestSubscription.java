package io.dlqdesk.rollback;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * What the ingest loop reads: its consumer group and the pattern of the DLQ topics it subscribes to. The check must look
 * at exactly that, so whoever wires the checker builds this from the ingest loop's own settings ({@code dlqdesk.ingest.*}).
 */
public record IngestSubscription(String groupId, Pattern topicPattern) {

    /** {@code dlqdesk.ingest.group-id}'s shipped default, for the command line, which runs without the ingest module. */
    public static final String DEFAULT_GROUP_ID = "dlq-incident-desk-ingest";
    /** {@code dlqdesk.ingest.topic-pattern}'s shipped default, likewise. */
    public static final String DEFAULT_TOPIC_PATTERN = ".*\\.dlq";

    public IngestSubscription {
        Objects.requireNonNull(groupId, "groupId");
        Objects.requireNonNull(topicPattern, "topicPattern");
        if (groupId.isBlank()) {
            throw new IllegalArgumentException("the ingest group id (dlqdesk.ingest.group-id) must not be blank");
        }
        if (topicPattern.pattern().isBlank()) {
            throw new IllegalArgumentException("the DLQ topic pattern (dlqdesk.ingest.topic-pattern) must not be blank");
        }
    }

    public static IngestSubscription of(String groupId, String topicPattern) {
        return new IngestSubscription(groupId, Pattern.compile(topicPattern));
    }
}

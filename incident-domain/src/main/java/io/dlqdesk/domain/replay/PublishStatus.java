package io.dlqdesk.domain.replay;

/**
 * Publish status of a replay attempt: NONE → REQUESTED → PUBLISHED | PUBLISH_FAILED, and
 * REQUESTED → PUBLISH_UNKNOWN (operator, one-way). PUBLISHED means the broker took the record,
 * not that the consumer succeeded: it never closes an incident.
 */
public enum PublishStatus {
    NONE,
    REQUESTED,
    PUBLISHED,
    PUBLISH_FAILED,
    PUBLISH_UNKNOWN
}

package io.dlqdesk.ingest.quarantine;

import io.dlqdesk.domain.InvalidValueException;
/** A page of quarantined DLQ records (summaries), newest first, optionally of one DLQ topic. Answered with a {@link QuarantinePage}. */
public record ListQuarantineQuery(String dlqTopic, int page, int size) {

    public static final int MAX_SIZE = 500;

    public ListQuarantineQuery {
        if (page < 0) {
            throw new InvalidValueException("page must be >= 0, was " + page);
        }
        if (size < 1 || size > MAX_SIZE) {
            throw new InvalidValueException("size must be between 1 and " + MAX_SIZE + ", was " + size);
        }
    }
}

package io.dlqdesk.ingest.quarantine;

import io.dlqdesk.domain.PageBounds;

/** A page of quarantined DLQ records (summaries), newest first, optionally of one DLQ topic. Answered with a {@link QuarantinePage}. */
public record ListQuarantineQuery(String dlqTopic, int page, int size) {

    public ListQuarantineQuery {
        PageBounds.require(page, size);
    }
}

package io.dlqdesk.ingest.quarantine;

import io.dlqdesk.domain.InvalidValueException;
import java.util.Objects;

/**
 * One quarantined DLQ record by its location, with at most {@code maxBytes} of its key and of its value (their full
 * sizes come along). Answered with an {@code Optional<QuarantinedRecordContent>}.
 */
public record FindQuarantinedRecordQuery(String dlqTopic, int dlqPartition, long dlqOffset, int maxBytes) {

    public FindQuarantinedRecordQuery {
        Objects.requireNonNull(dlqTopic, "dlqTopic");
        if (maxBytes < 1) {
            throw new InvalidValueException("maxBytes must be at least 1, was " + maxBytes);
        }
    }
}

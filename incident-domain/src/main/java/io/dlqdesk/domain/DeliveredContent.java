package io.dlqdesk.domain;

import io.dlqdesk.domain.record.EventId;
import io.dlqdesk.domain.record.FailedRecord;
import io.dlqdesk.domain.record.OriginalTimestamp;
import io.dlqdesk.domain.record.PayloadHash;
import io.dlqdesk.domain.record.RecordKey;
import io.dlqdesk.domain.replay.ReplayHeaders;

/**
 * What makes two deliveries of a failure the same failure: with the failure key, the record's
 * eventId, key bytes, value hash, original timestamp and the replay headers it carried. The
 * exception text and the DLQ location may differ between deliveries; none of these may.
 */
record DeliveredContent(EventId eventId, RecordKey key, PayloadHash valueHash, OriginalTimestamp originalTimestamp,
                        ReplayHeaders replayHeaders) {

    static DeliveredContent of(FailedRecord failure, ReplayHeaders replayHeaders) {
        return new DeliveredContent(failure.eventId(), failure.key(), failure.valueHash(), failure.originalTimestamp(), replayHeaders);
    }
}

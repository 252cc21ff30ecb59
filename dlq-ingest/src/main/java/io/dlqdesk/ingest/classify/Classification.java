package io.dlqdesk.ingest.classify;

import io.dlqdesk.domain.record.FailedRecord;
import io.dlqdesk.domain.replay.ReplayHeaders;

/**
 * What a DLQ record is, decided before it takes a worker slot. Cheap and side-effect free: the
 * decision needs only the record's own bytes and this deployment's settings.
 */
public sealed interface Classification {

    /** A failure of a consumer group this deployment does not own: complete it, nothing to store. */
    record NotOurs(String consumerGroup) implements Classification {
    }

    /**
     * A record that can never become an incident (the failing group missing or undecodable, or a
     * corrupt timestamp header): it is kept in the quarantine table with this reason, then completed.
     * A record whose group is known but whose original location is not is a {@link Failure} keyed by
     * its DLQ record (see {@code FailedRecord.locationUnknownReason}), never this.
     */
    record Malformed(String reason) implements Classification {
    }

    /** A first failure: open an incident (duplicate-safe). */
    record Failure(FailedRecord failure) implements Classification {
    }

    /**
     * A re-failure of a replayed record: it carries at least one of the four correlation headers
     * (values raw and unvalidated, each null when absent); correlate it to the root it names.
     */
    record RetryFailure(FailedRecord failure, ReplayHeaders headers) implements Classification {
    }
}

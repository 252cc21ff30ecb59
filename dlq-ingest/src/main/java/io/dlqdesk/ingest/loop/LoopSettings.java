package io.dlqdesk.ingest.loop;

import java.time.Duration;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * How the loop runs. In-flight work and awaiting-commit records are bounded separately: the first
 * caps work across all partitions, the second stops one slow partition from holding unbounded
 * completed-but-uncommittable records without stopping any other partition's intake. A write that
 * fails for a reason of the record's own is tried {@code maxRecordAttempts} times, then the malformed
 * policy takes the record; a transient failure (database unreachable, timeouts, locks) is retried
 * without bound. On stop the loop waits up to {@code drainTimeout} for the records in flight to be written before it
 * commits and leaves the group (zero: it does not wait, they come again to the partitions' next owner).
 */
public record LoopSettings(Pattern topics, MalformedPolicy malformedPolicy, int maxInFlight, int maxAwaitingCommitPerPartition, int batchSize,
                           Duration pollTimeout, Duration commitTimeout, Duration retryInitialBackoff, Duration retryMaxBackoff,
                           Duration restartBackoff, int maxRecordAttempts, Duration drainTimeout) {

    public LoopSettings {
        Objects.requireNonNull(topics, "topics");
        Objects.requireNonNull(malformedPolicy, "malformedPolicy");
        if (maxInFlight < 1 || maxAwaitingCommitPerPartition < 1 || batchSize < 1 || maxRecordAttempts < 1) {
            throw new IllegalArgumentException("maxInFlight, maxAwaitingCommitPerPartition, batchSize and maxRecordAttempts must be >= 1");
        }
        for (Duration duration : new Duration[] {pollTimeout, commitTimeout, retryInitialBackoff, retryMaxBackoff, restartBackoff}) {
            if (duration == null || duration.isNegative() || duration.isZero()) {
                throw new IllegalArgumentException("durations must be positive");
            }
        }
        if (drainTimeout == null || drainTimeout.isNegative()) {
            throw new IllegalArgumentException("drainTimeout must be zero or positive");
        }
    }
}

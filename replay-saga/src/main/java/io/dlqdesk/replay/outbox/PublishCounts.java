package io.dlqdesk.replay.outbox;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;

/** The outbox poller's metrics and the log line of each decision; FAILED rows are logged once their end offset is known. */
final class PublishCounts {

    private static final Logger log = LoggerFactory.getLogger(PublishCounts.class);

    private final int maxTries;
    private final Counter published;
    private final Counter failedTries;
    private final Counter failed;
    private final DistributionSummary claimedRows;

    PublishCounts(MeterRegistry meters, int maxTries) {
        this.maxTries = maxTries;
        this.published = Counter.builder("dlq.replay.published").description("replays the broker acknowledged").register(meters);
        this.failedTries = Counter.builder("dlq.replay.failed_tries").description("publish tries that failed").register(meters);
        this.failed = Counter.builder("dlq.replay.publish_failed").description("replays FAILED after their last try").register(meters);
        this.claimedRows = DistributionSummary.builder("dlq.replay.claimed_rows").description("rows per round that claimed any")
                .register(meters);
    }

    void claimed(int rows) {
        claimedRows.record(rows);
    }

    void countAndLog(List<RowDecision> decisions) {
        for (RowDecision decision : decisions) {
            if (decision instanceof RowDecision.Sent sent) {
                published.increment();
                log.info("replay {} published to {}", sent.row().replayId(), sent.at());
            } else if (decision instanceof RowDecision.Deferred deferred) {
                failedTries.increment();
                log.warn("replay {} try {} of {} failed, next in {}: {}", deferred.row().replayId(), deferred.tryNumber(), maxTries,
                        deferred.retryAfter(), deferred.reason());
            } else if (decision instanceof RowDecision.Failed failedRow) {
                failed.increment();
                if (failedRow.outOfTries()) {
                    failedTries.increment();
                }
            }
        }
    }
}

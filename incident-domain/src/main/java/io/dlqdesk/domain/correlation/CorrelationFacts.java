package io.dlqdesk.domain.correlation;

import io.dlqdesk.domain.record.FailedRecord;
import io.dlqdesk.domain.replay.ReplayHeaders;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A re-failure as ingest decoded it, its raw replay headers, this deployment's ledger name, and
 * what the incident named by the root header recorded.
 */
public record CorrelationFacts(FailedRecord failure, ReplayHeaders headers, String ledgerName, RecordedReplay recorded) {

    // what the publisher writes: a positive decimal without sign, leading zeros or spaces
    private static final Pattern ATTEMPT = Pattern.compile("[1-9][0-9]{0,8}");

    /** The attempt the attempt header names, if it is well-formed and was recorded. */
    public Optional<RecordedAttempt> namedAttempt() {
        String header = headers.attempt();
        if (header == null || !ATTEMPT.matcher(header).matches()) {
            return Optional.empty();
        }
        return recorded.attempt(Integer.parseInt(header));
    }
}

package io.dlqdesk.rollback.check;

import com.fasterxml.jackson.annotation.JsonValue;

import java.util.Map;

/**
 * The values a condition was decided on, one record per condition; each serialises to the report's {@code observed}
 * object (names in component order). An UNKNOWN condition observed {@link #NOTHING}.
 */
public sealed interface Observation
        permits NoPendingReplay.Observed, NoAttemptRequested.Observed, ReplaysConsumed.Observed, RetryBoundPassed.Observed, NoReplayJobActive.Observed,
        RollbackFactsComplete.Observed,
        Observation.Nothing {

    Observation NOTHING = new Nothing();

    /** Nothing could be read: {@code {}}. */
    record Nothing() implements Observation {
        @JsonValue
        Map<String, Object> json() {
            return Map.of();
        }
    }
}

package io.dlqdesk.domain.replay;

import io.dlqdesk.domain.InvalidValueException;
import java.util.List;

/**
 * What {@link RequestReplayCommand} returns: the new attempt's number, or the refusals (also stored
 * as {@link ReplayRejected}). Exactly one of the two is set. {@code keyFreshness}: what the staleness check found, for the
 * caller to name a newer offset (null where the check did not run).
 */
public record ReplayOutcome(Integer attempt, List<ReplayRefusal> refusals, KeyFreshness keyFreshness) {

    public ReplayOutcome {
        refusals = List.copyOf(refusals);
        if ((attempt == null) == refusals.isEmpty()) {
            throw new InvalidValueException("an outcome is either an attempt or a non-empty list of refusals");
        }
    }

    public static ReplayOutcome requested(int attempt) {
        return new ReplayOutcome(attempt, List.of(), null);
    }

    public static ReplayOutcome rejected(List<ReplayRefusal> refusals) {
        return new ReplayOutcome(null, refusals, null);
    }

    public static ReplayOutcome rejected(List<ReplayRefusal> refusals, KeyFreshness keyFreshness) {
        return new ReplayOutcome(null, refusals, keyFreshness);
    }
}

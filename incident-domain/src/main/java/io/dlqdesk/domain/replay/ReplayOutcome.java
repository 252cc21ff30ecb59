package io.dlqdesk.domain.replay;

import io.dlqdesk.domain.InvalidValueException;
import java.util.List;

/**
 * What {@link RequestReplayCommand} returns: the new attempt's number, or the refusals (also stored
 * as {@link ReplayRejected}). Exactly one of the two is set.
 */
public record ReplayOutcome(Integer attempt, List<ReplayRefusal> refusals) {

    public ReplayOutcome {
        refusals = List.copyOf(refusals);
        if ((attempt == null) == refusals.isEmpty()) {
            throw new InvalidValueException("an outcome is either an attempt or a non-empty list of refusals");
        }
    }

    public static ReplayOutcome requested(int attempt) {
        return new ReplayOutcome(attempt, List.of());
    }

    public static ReplayOutcome rejected(List<ReplayRefusal> refusals) {
        return new ReplayOutcome(null, refusals);
    }
}

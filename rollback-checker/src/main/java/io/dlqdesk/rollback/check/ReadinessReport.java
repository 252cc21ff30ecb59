package io.dlqdesk.rollback.check;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;

/**
 * What a check found: the verdict and every condition with its observed values. The same shape comes
 * from the endpoint and from the command line.
 *
 * @param observations how many observations were made: 2 for READY (the conditions held twice, an
 *                     interval apart); 1 when the first already failed or was UNKNOWN; 0 when the check
 *                     could not start at all
 * @param conditions   as of the last observation, in {@link Condition} order
 */
public record ReadinessReport(Verdict verdict, Instant checkedAt, int observations, List<ConditionResult> conditions) {

    public ReadinessReport {
        conditions = List.copyOf(conditions);
    }

    /** UNKNOWN before anything could be observed (bad configuration, the check itself failing): every condition unknown. */
    public static ReadinessReport couldNotCheck(Instant at, String reason) {
        return new ReadinessReport(Verdict.UNKNOWN, at, 0,
                Arrays.stream(Condition.values()).map(condition -> ConditionResult.unknown(condition, reason)).toList());
    }

    /** UNKNOWN if any condition is unknown, else NOT_READY if any is not met, else READY. */
    static Verdict verdictOf(List<ConditionResult> conditions) {
        if (conditions.stream().anyMatch(result -> result.status() == ConditionResult.Status.UNKNOWN)) {
            return Verdict.UNKNOWN;
        }
        if (conditions.stream().anyMatch(result -> result.status() == ConditionResult.Status.NOT_MET)) {
            return Verdict.NOT_READY;
        }
        return Verdict.READY;
    }
}

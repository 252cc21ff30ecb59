package io.dlqdesk.rollback.check;

import java.util.Objects;

/**
 * One condition as observed: whether it holds, why, and the values it was decided on.
 *
 * @param observed the values read from the database and the brokers; {@link Observation#NOTHING} when UNKNOWN
 */
public record ConditionResult(Condition condition, Status status, String explanation, Observation observed) {

    public enum Status { MET, NOT_MET, UNKNOWN }

    public ConditionResult {
        Objects.requireNonNull(condition, "condition");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(explanation, "explanation");
        observed = observed == null ? Observation.NOTHING : observed;
    }

    static ConditionResult met(Condition condition, String explanation, Observation observed) {
        return new ConditionResult(condition, Status.MET, explanation, observed);
    }

    static ConditionResult notMet(Condition condition, String explanation, Observation observed) {
        return new ConditionResult(condition, Status.NOT_MET, explanation, observed);
    }

    static ConditionResult unknown(Condition condition, String explanation) {
        return new ConditionResult(condition, Status.UNKNOWN, explanation, Observation.NOTHING);
    }
}

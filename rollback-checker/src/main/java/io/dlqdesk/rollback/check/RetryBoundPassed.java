package io.dlqdesk.rollback.check;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import io.dlqdesk.projections.readiness.RollbackFacts;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

import static io.dlqdesk.rollback.check.ConditionResult.met;
import static io.dlqdesk.rollback.check.ConditionResult.notMet;
import static io.dlqdesk.rollback.check.ConditionResult.unknown;

/**
 * {@link Condition#RETRY_BOUND_PASSED}: the last publish decision plus the retry bound lies in the past, so no re-failure of a
 * replay can still be on its way. Never decided anything: met. "Now" is read when the rule is evaluated, the observation's end.
 */
final class RetryBoundPassed {

    /**
     * @param lastDecisionAt null when no replay was ever decided ({@code "none"})
     * @param retryBound     as ISO-8601 text ({@code "PT1M40S"}) whatever the mapper does with durations
     * @param clearAt        when the bound passes; left out without a decision
     */
    record Observed(@JsonSerialize(nullsUsing = NoneWhenAbsent.class) Instant lastDecisionAt,
                    @JsonSerialize(using = ToStringSerializer.class) Duration retryBound,
                    Instant now,
                    @JsonInclude(JsonInclude.Include.NON_NULL) Instant clearAt) implements Observation {
    }

    private final Duration retryBound;
    private final Clock clock;

    RetryBoundPassed(Duration retryBound, Clock clock) {
        this.retryBound = Objects.requireNonNull(retryBound, "retryBound");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    ConditionResult evaluate(Read<RollbackFacts> facts) {
        Condition condition = Condition.RETRY_BOUND_PASSED;
        if (facts.failed()) {
            return unknown(condition, facts.error());
        }
        Instant last = facts.value().lastDecisionAt();
        Instant now = clock.instant();
        if (last == null) {
            return met(condition, "no replay was ever decided", new Observed(null, retryBound, now, null));
        }
        Instant clearAt = last.plus(retryBound);
        Observed observed = new Observed(last, retryBound, now, clearAt);
        return clearAt.isBefore(now) ? met(condition, "the retry bound after the last publish decision has passed", observed)
                : notMet(condition, "a consumer may still re-fail the last replay until " + clearAt, observed);
    }
}

package io.dlqdesk.rollback.check;

import io.dlqdesk.projections.readiness.RollbackFacts;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import static io.dlqdesk.rollback.check.ConditionResult.Status.MET;
import static io.dlqdesk.rollback.check.ConditionResult.Status.NOT_MET;
import static io.dlqdesk.rollback.check.ConditionResult.Status.UNKNOWN;
import static org.assertj.core.api.Assertions.assertThat;

class RetryBoundPassedTest {

    private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");
    private static final Duration BOUND = Duration.ofSeconds(100);

    private final RetryBoundPassed rule = new RetryBoundPassed(BOUND, Clock.fixed(NOW, ZoneOffset.UTC));

    @Test
    void noDecisionEverIsMetWithNothingToClear() {
        ConditionResult result = rule.evaluate(decidedAt(null));

        assertThat(result.condition()).isEqualTo(Condition.RETRY_BOUND_PASSED);
        assertThat(result.status()).isEqualTo(MET);
        assertThat(result.observed()).isEqualTo(new RetryBoundPassed.Observed(null, BOUND, NOW, null));
    }

    @Test
    void aDecisionJustOutsideTheBoundIsMet() {
        Instant decided = NOW.minus(BOUND).minusMillis(1);

        ConditionResult result = rule.evaluate(decidedAt(decided));

        assertThat(result.status()).isEqualTo(MET);
        assertThat(result.observed()).isEqualTo(new RetryBoundPassed.Observed(decided, BOUND, NOW, decided.plus(BOUND)));
    }

    @Test
    void aDecisionWhoseBoundEndsNowIsNotMet() {
        ConditionResult result = rule.evaluate(decidedAt(NOW.minus(BOUND)));

        assertThat(result.status()).isEqualTo(NOT_MET);
        assertThat(result.explanation()).isEqualTo("a consumer may still re-fail the last replay until " + NOW);
        assertThat(((RetryBoundPassed.Observed) result.observed()).clearAt()).isEqualTo(NOW);
    }

    @Test
    void factsThatCouldNotBeReadAreUnknown() {
        ConditionResult result = rule.evaluate(Read.failed("database did not answer within PT5S"));

        assertThat(result.status()).isEqualTo(UNKNOWN);
        assertThat(result.observed()).isEqualTo(Observation.NOTHING);
    }

    private static Read<RollbackFacts> decidedAt(Instant lastDecision) {
        return Read.of(new RollbackFacts(0, lastDecision, List.of()));
    }
}

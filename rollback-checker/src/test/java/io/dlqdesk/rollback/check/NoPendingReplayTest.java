package io.dlqdesk.rollback.check;

import org.junit.jupiter.api.Test;

import static io.dlqdesk.rollback.check.ConditionResult.Status.MET;
import static io.dlqdesk.rollback.check.ConditionResult.Status.NOT_MET;
import static io.dlqdesk.rollback.check.ConditionResult.Status.UNKNOWN;
import static org.assertj.core.api.Assertions.assertThat;

class NoPendingReplayTest {

    private final NoPendingReplay rule = new NoPendingReplay();

    @Test
    void anEmptyOutboxIsMet() {
        ConditionResult result = rule.evaluate(Read.of(0L));

        assertThat(result.condition()).isEqualTo(Condition.NO_PENDING_REPLAY);
        assertThat(result.status()).isEqualTo(MET);
        assertThat(result.observed()).isEqualTo(new NoPendingReplay.Observed(0));
    }

    @Test
    void aRowWaitingToBePublishedIsNotMet() {
        ConditionResult result = rule.evaluate(Read.of(2L));

        assertThat(result.status()).isEqualTo(NOT_MET);
        assertThat(result.explanation()).isEqualTo("2 replay(s) wait in the outbox to be published");
        assertThat(result.observed()).isEqualTo(new NoPendingReplay.Observed(2));
    }

    @Test
    void anOutboxThatCouldNotBeReadIsUnknownAndObservedNothing() {
        ConditionResult result = rule.evaluate(Read.failed("database did not answer within PT5S"));

        assertThat(result.status()).isEqualTo(UNKNOWN);
        assertThat(result.explanation()).isEqualTo("database did not answer within PT5S");
        assertThat(result.observed()).isEqualTo(Observation.NOTHING);
    }
}

package io.dlqdesk.rollback.check;

import io.dlqdesk.projections.readiness.RollbackFacts;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static io.dlqdesk.rollback.check.ConditionResult.Status.MET;
import static io.dlqdesk.rollback.check.ConditionResult.Status.NOT_MET;
import static io.dlqdesk.rollback.check.ConditionResult.Status.UNKNOWN;
import static org.assertj.core.api.Assertions.assertThat;

class NoAttemptRequestedTest {

    private static final Read<ReadModelState> CAUGHT_UP = Read.of(new ReadModelState(120, 120L, true));
    private static final Read<RollbackFacts> NOTHING_REQUESTED = Read.of(new RollbackFacts(0, null, List.of()));

    private final NoAttemptRequested rule = new NoAttemptRequested(Duration.ofSeconds(10));

    @Test
    void nothingRequestedInACaughtUpReadModelIsMet() {
        ConditionResult result = rule.evaluate(CAUGHT_UP, NOTHING_REQUESTED);

        assertThat(result.condition()).isEqualTo(Condition.NO_ATTEMPT_REQUESTED);
        assertThat(result.status()).isEqualTo(MET);
        assertThat(result.observed()).isEqualTo(new NoAttemptRequested.Observed(0, 120, 120L));
    }

    @Test
    void anAttemptRequestedIsNotMet() {
        ConditionResult result = rule.evaluate(CAUGHT_UP, Read.of(new RollbackFacts(3, null, List.of())));

        assertThat(result.status()).isEqualTo(NOT_MET);
        assertThat(result.explanation()).startsWith("3 attempt(s) REQUESTED");
        assertThat(result.observed()).isEqualTo(new NoAttemptRequested.Observed(3, 120, 120L));
    }

    @Test
    void aReadModelBehindTheEventStoreIsNotMetEvenWithNothingRequestedInIt() {
        ConditionResult result = rule.evaluate(Read.of(new ReadModelState(120, 119L, false)), NOTHING_REQUESTED);

        assertThat(result.status()).isEqualTo(NOT_MET);
        assertThat(result.explanation()).contains("has not reached the event store's head within PT10S");
        assertThat(result.observed()).isEqualTo(new NoAttemptRequested.Observed(0, 120, 119L));
    }

    @Test
    void aReadModelWithoutTokensIsObservedWithoutAPosition() {
        ConditionResult result = rule.evaluate(Read.of(new ReadModelState(5, null, false)), NOTHING_REQUESTED);

        assertThat(result.status()).isEqualTo(NOT_MET);
        assertThat(((NoAttemptRequested.Observed) result.observed()).readModelPosition()).isNull();
    }

    @Test
    void aReadModelOrFactsThatCouldNotBeReadAreUnknown() {
        ConditionResult readModelUnread = rule.evaluate(Read.failed("database did not answer within PT26S"), NOTHING_REQUESTED);
        ConditionResult factsUnread = rule.evaluate(CAUGHT_UP, Read.failed("database could not be read: boom"));

        assertThat(readModelUnread.status()).isEqualTo(UNKNOWN);
        assertThat(readModelUnread.explanation()).isEqualTo("database did not answer within PT26S");
        assertThat(factsUnread.status()).isEqualTo(UNKNOWN);
        assertThat(factsUnread.explanation()).isEqualTo("database could not be read: boom");
        assertThat(factsUnread.observed()).isEqualTo(Observation.NOTHING);
    }
}

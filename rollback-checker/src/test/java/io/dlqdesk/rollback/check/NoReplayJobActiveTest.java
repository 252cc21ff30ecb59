package io.dlqdesk.rollback.check;

import io.dlqdesk.projections.readiness.RollbackFacts;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.dlqdesk.rollback.check.ConditionResult.Status.MET;
import static io.dlqdesk.rollback.check.ConditionResult.Status.NOT_MET;
import static io.dlqdesk.rollback.check.ConditionResult.Status.UNKNOWN;
import static org.assertj.core.api.Assertions.assertThat;

class NoReplayJobActiveTest {

    private final NoReplayJobActive rule = new NoReplayJobActive();

    private static RollbackFacts withJobs(RollbackFacts.ActiveJob... jobs) {
        return new RollbackFacts(0, null, List.of(), List.of(), 0, List.of(jobs));
    }

    @Test
    void noJobWithWorkLeftIsMet() {
        ConditionResult result = rule.evaluate(Read.of(withJobs()));

        assertThat(result.condition()).isEqualTo(Condition.NO_REPLAY_JOB_ACTIVE);
        assertThat(result.status()).isEqualTo(MET);
        assertThat(result.observed()).isEqualTo(new NoReplayJobActive.Observed(List.of()));
    }

    @Test
    void aRunningOrPausedJobIsNotMet() {
        var running = new RollbackFacts.ActiveJob("job-1", "RUNNING");
        var paused = new RollbackFacts.ActiveJob("job-2", "PAUSED");
        ConditionResult result = rule.evaluate(Read.of(withJobs(running, paused)));

        assertThat(result.status()).isEqualTo(NOT_MET);
        assertThat(result.explanation()).isEqualTo("2 replay job(s) RUNNING, PAUSED or AWAITING_APPROVAL may still request replays");
        assertThat(result.observed()).isEqualTo(new NoReplayJobActive.Observed(List.of(running, paused)));
        assertThat(rule.evaluate(Read.of(withJobs(paused))).status()).as("a paused job alone").isEqualTo(NOT_MET);
    }

    @Test
    void factsThatCouldNotBeReadAreUnknown() {
        ConditionResult result = rule.evaluate(Read.failed("database did not answer within PT5S"));

        assertThat(result.status()).isEqualTo(UNKNOWN);
        assertThat(result.observed()).isEqualTo(Observation.NOTHING);
    }
}

package io.dlqdesk.rollback.check;

import io.dlqdesk.projections.readiness.RollbackFacts;

import java.util.List;

import static io.dlqdesk.rollback.check.ConditionResult.met;
import static io.dlqdesk.rollback.check.ConditionResult.notMet;
import static io.dlqdesk.rollback.check.ConditionResult.unknown;

/**
 * {@link Condition#NO_REPLAY_JOB_ACTIVE}: no replay job is RUNNING, PAUSED or AWAITING_APPROVAL. Such a job may still request replays (a paused
 * one as soon as someone resumes it), so a rollback now could meet them. Read with the other rollback facts, from the read
 * model the check waits for (NO_ATTEMPT_REQUESTED reports how far it got).
 */
final class NoReplayJobActive {

    record Observed(List<RollbackFacts.ActiveJob> activeJobs) implements Observation {
    }

    ConditionResult evaluate(Read<RollbackFacts> facts) {
        Condition condition = Condition.NO_REPLAY_JOB_ACTIVE;
        if (facts.failed()) {
            return unknown(condition, facts.error());
        }
        List<RollbackFacts.ActiveJob> active = facts.value().activeJobs();
        Observed observed = new Observed(active);
        return active.isEmpty() ? met(condition, "no replay job has work left", observed)
                : notMet(condition, active.size() + " replay job(s) RUNNING, PAUSED or AWAITING_APPROVAL may still request replays", observed);
    }
}

package io.dlqdesk.rollback.check;

import static io.dlqdesk.rollback.check.ConditionResult.met;
import static io.dlqdesk.rollback.check.ConditionResult.unknown;

/**
 * The rollback facts are only as complete as the events their processor applied: one it parked (docs/operations.md,
 * "Parked events") may be a replay request or a decision the other conditions never see. Then nothing can be said.
 */
final class RollbackFactsComplete {

    record Observed(long parkedEvents) implements Observation {
    }

    ConditionResult evaluate(Read<Long> parked) {
        Condition condition = Condition.ROLLBACK_FACTS_COMPLETE;
        if (parked.failed()) {
            return unknown(condition, parked.error());
        }
        long count = parked.value();
        return count == 0 ? met(condition, "the rollback-facts processor has no parked event", new Observed(0))
                : unknown(condition, count + " event(s) parked by the rollback-facts processor: the facts may miss a replay;"
                + " retry or evict them (GET /api/v1/parked-events?processingGroup=rollback-facts)");
    }
}

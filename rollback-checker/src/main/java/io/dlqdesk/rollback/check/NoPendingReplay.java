package io.dlqdesk.rollback.check;

import static io.dlqdesk.rollback.check.ConditionResult.met;
import static io.dlqdesk.rollback.check.ConditionResult.notMet;
import static io.dlqdesk.rollback.check.ConditionResult.unknown;

/** {@link Condition#NO_PENDING_REPLAY}: no replay outbox row waits to be published. */
final class NoPendingReplay {

    record Observed(long pendingOutboxRows) implements Observation {
    }

    ConditionResult evaluate(Read<Long> pendingOutboxRows) {
        Condition condition = Condition.NO_PENDING_REPLAY;
        if (pendingOutboxRows.failed()) {
            return unknown(condition, pendingOutboxRows.error());
        }
        long pending = pendingOutboxRows.value();
        Observed observed = new Observed(pending);
        return pending == 0 ? met(condition, "no replay waits in the outbox", observed)
                : notMet(condition, pending + " replay(s) wait in the outbox to be published", observed);
    }
}

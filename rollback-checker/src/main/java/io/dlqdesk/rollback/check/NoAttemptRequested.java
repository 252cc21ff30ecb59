package io.dlqdesk.rollback.check;

import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import io.dlqdesk.projections.readiness.RollbackFacts;

import java.time.Duration;
import java.util.Objects;

import static io.dlqdesk.rollback.check.ConditionResult.met;
import static io.dlqdesk.rollback.check.ConditionResult.notMet;
import static io.dlqdesk.rollback.check.ConditionResult.unknown;

/**
 * {@link Condition#NO_ATTEMPT_REQUESTED}: no attempt is REQUESTED, read from a read model that has reached the event store's
 * head. A read model still behind is NOT_MET whatever it holds: a request it has not seen may be in flight.
 */
final class NoAttemptRequested {

    /** @param readModelPosition null when the read model has no tokens ({@code "none"}) */
    record Observed(long requestedAttempts, long eventStoreHead, @JsonSerialize(nullsUsing = NoneWhenAbsent.class) Long readModelPosition)
            implements Observation {
    }

    private final Duration readModelWait;

    NoAttemptRequested(Duration readModelWait) {
        this.readModelWait = Objects.requireNonNull(readModelWait, "readModelWait");
    }

    ConditionResult evaluate(Read<ReadModelState> readModel, Read<RollbackFacts> facts) {
        Condition condition = Condition.NO_ATTEMPT_REQUESTED;
        if (readModel.failed() || facts.failed()) {
            return unknown(condition, readModel.failed() ? readModel.error() : facts.error());
        }
        ReadModelState state = readModel.value();
        long requested = facts.value().requestedAttempts();
        Observed observed = new Observed(requested, state.head(), state.position());
        if (!state.caughtUp()) {
            return notMet(condition, "the replay read model has not reached the event store's head within "
                    + readModelWait + ": attempts it has not seen may be in flight", observed);
        }
        return requested == 0 ? met(condition, "no attempt waits for its publish result", observed)
                : notMet(condition, requested + " attempt(s) REQUESTED: their publish results are not known yet", observed);
    }
}

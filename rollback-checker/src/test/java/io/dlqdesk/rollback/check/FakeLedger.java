package io.dlqdesk.rollback.check;

import io.dlqdesk.projections.readiness.RollbackFacts;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/** A database that answers what the test sets: by default nothing in flight and the read model at the head. */
class FakeLedger implements ReplayLedger {
    long pending;
    long head = 10;
    OptionalLong position = OptionalLong.of(10);
    RollbackFacts facts = new RollbackFacts(0, null, List.of());
    long parked;
    boolean failing;
    int factReads;

    @Override
    public long pendingOutboxRows() {
        failIfDown();
        return pending;
    }

    @Override
    public long eventStoreHead() {
        failIfDown();
        return head;
    }

    @Override
    public OptionalLong readModelPosition() {
        failIfDown();
        return position;
    }

    @Override
    public long parkedRollbackFacts() {
        failIfDown();
        return parked;
    }

    @Override
    public RollbackFacts facts() {
        failIfDown();
        factReads++;
        return facts;
    }

    private void failIfDown() {
        if (failing) {
            throw new IllegalStateException("cannot get a connection", new java.net.ConnectException("connection refused"));
        }
    }
}

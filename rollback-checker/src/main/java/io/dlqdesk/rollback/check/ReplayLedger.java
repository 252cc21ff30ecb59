package io.dlqdesk.rollback.check;

import io.dlqdesk.projections.readiness.RollbackFacts;

import java.time.Instant;
import java.util.OptionalLong;

/** What the check reads from the database. Every method may throw when the database cannot be asked. */
public interface ReplayLedger {

    /** Replay outbox rows still waiting to be published. */
    long pendingOutboxRows();

    /** The global index of the newest stored event; -1 for an empty event store. */
    long eventStoreHead();

    /** The lowest position any segment of the rollback-facts read model has processed up to; -1 for "none"; empty if it has no tokens. */
    OptionalLong readModelPosition();

    /** Events the rollback-facts processor holds parked: facts it has not applied. */
    long parkedRollbackFacts();

    /** The rollback-facts read model: every decided replay not consumed for sure, however old, less the waived ones. */
    RollbackFacts facts();
}

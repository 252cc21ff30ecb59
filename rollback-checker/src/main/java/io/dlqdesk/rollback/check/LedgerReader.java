package io.dlqdesk.rollback.check;

import io.dlqdesk.projections.readiness.RollbackFacts;
import io.dlqdesk.rollback.RollbackProperties;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * What one observation reads from the database, each read within its bound. A database that did not answer once is not
 * asked again, so an observation of a dead database is UNKNOWN within one bound.
 */
final class LedgerReader {

    private static final Duration READ_MODEL_POLL = Duration.ofMillis(200);

    record Readings(Read<Long> pendingOutboxRows, Read<ReadModelState> readModel, Read<RollbackFacts> facts, Read<Long> parkedFacts) {
    }

    private final ReplayLedger ledger;
    private final BoundedReads reads;
    private final RollbackProperties settings;
    private final Clock clock;
    private final RollbackChecker.Sleeper sleeper;

    LedgerReader(ReplayLedger ledger, BoundedReads reads, RollbackProperties settings, Clock clock, RollbackChecker.Sleeper sleeper) {
        this.ledger = Objects.requireNonNull(ledger, "ledger");
        this.reads = Objects.requireNonNull(reads, "reads");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
    }

    Readings read() throws InterruptedException {
        Duration bound = settings.requestTimeout();
        Read<Long> pending = reads.read("database", ledger::pendingOutboxRows, bound);
        if (pending.failed()) {
            return new Readings(pending, Read.failed(pending.error()), Read.failed(pending.error()), Read.failed(pending.error()));
        }
        Read<ReadModelState> readModel = reads.read("database", this::awaitReadModel, settings.readModelWait().plus(bound.multipliedBy(2)));
        Read<RollbackFacts> facts = readModel.failed() ? Read.failed(readModel.error())
                : reads.read("database", ledger::facts, bound);
        Read<Long> parked = reads.read("database", ledger::parkedRollbackFacts, bound);
        return new Readings(pending, readModel, facts, parked);
    }

    /** Reads the event store's head once, then waits (bounded) for the read model to reach it. */
    private ReadModelState awaitReadModel() throws InterruptedException {
        long head = ledger.eventStoreHead();
        long waitUntil = System.nanoTime() + settings.readModelWait().toNanos();
        while (true) {
            OptionalLong position = ledger.readModelPosition();
            boolean caughtUp = head < 0 || (position.isPresent() && position.getAsLong() >= head);
            if (caughtUp || System.nanoTime() >= waitUntil) {
                return new ReadModelState(head, position.isPresent() ? position.getAsLong() : null, caughtUp);
            }
            sleeper.sleep(READ_MODEL_POLL);
        }
    }
}

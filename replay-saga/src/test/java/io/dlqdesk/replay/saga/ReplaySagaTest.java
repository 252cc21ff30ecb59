package io.dlqdesk.replay.saga;

import io.dlqdesk.domain.api.PublishMarkedUnknown;
import io.dlqdesk.domain.api.PublishResultRecorded;
import io.dlqdesk.domain.api.ReplayRequested;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.OperatorAction;
import io.dlqdesk.domain.record.EventId;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.domain.record.OriginalTimestamp;
import io.dlqdesk.domain.record.PayloadHash;
import io.dlqdesk.domain.record.RecordKey;
import io.dlqdesk.domain.record.RecordLocation;
import io.dlqdesk.domain.record.TimestampType;
import io.dlqdesk.domain.replay.PublishResult;
import io.dlqdesk.domain.replay.RecordPublishResultCommand;
import io.dlqdesk.replay.outbox.OutboxRow;
import io.dlqdesk.replay.outbox.ReplayOutbox;
import org.axonframework.commandhandling.gateway.DefaultCommandGateway;
import org.axonframework.test.saga.SagaTestFixture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class ReplaySagaTest {

    private static final Duration DELAY = Duration.ofMinutes(5);
    private static final FailureKey ROOT = new FailureKey("orders", 2, 40L, "billing");
    private static final IncidentId ID = IncidentId.of(ROOT);
    private static final Instant AT = Instant.parse("2026-11-30T08:00:00Z");
    private static final OperatorAction ALICE = new OperatorAction("alice", "consumer fixed", AT);
    private static final ReplayRequested REQUESTED = new ReplayRequested(ID, 1, ROOT, ROOT.location(), "billing",
            RecordKey.of("k".getBytes(StandardCharsets.UTF_8)), new EventId("evt-1"), PayloadHash.of(new byte[] {1, 2}),
            new OriginalTimestamp(AT.minusSeconds(60), TimestampType.CREATE_TIME), AT.plus(Duration.ofDays(7)), "desk", ALICE);
    private static final PublishResult PUBLISHED = PublishResult.published(new RecordLocation("orders", 2, 99L), AT.plusSeconds(1));

    private final InMemoryOutbox outbox = new InMemoryOutbox();
    private SagaTestFixture<ReplaySaga> fixture;

    @BeforeEach
    void setUp() {
        fixture = new SagaTestFixture<>(ReplaySaga.class);
        fixture.registerResource(outbox);
        fixture.registerResource(new ReconciliationDelay(DELAY));
        fixture.registerResource(DefaultCommandGateway.builder().commandBus(fixture.getCommandBus()).build());
    }

    @Test
    void aReplayRequestWritesOneOutboxRowAndSchedulesReconciliation() {
        fixture.givenNoPriorActivity()
                .whenPublishingA(REQUESTED)
                .expectActiveSagas(1)
                .expectAssociationWith(ReplaySaga.REPLAY_ID, ID.replayId(1))
                .expectScheduledDeadlineWithName(DELAY, ReplaySaga.RECONCILE)
                .expectNoDispatchedCommands();
        assertThat(outbox.rows).containsOnlyKeys(ID.replayId(1));
    }

    @Test
    void aRecordedResultEndsTheSagaAndCancelsReconciliation() {
        fixture.givenAPublished(REQUESTED)
                .whenPublishingA(new PublishResultRecorded(ID, 1, ROOT, PUBLISHED))
                .expectActiveSagas(0)
                .expectNoScheduledDeadlines();
    }

    @Test
    void aResultOfAnotherAttemptDoesNotEndIt() {
        fixture.givenAPublished(REQUESTED)
                .whenPublishingA(new PublishResultRecorded(ID, 2, ROOT, PUBLISHED))
                .expectActiveSagas(1)
                .expectScheduledDeadlineWithName(DELAY, ReplaySaga.RECONCILE);
    }

    @Test
    void markingThePublishUnknownEndsTheSaga() {
        fixture.givenAPublished(REQUESTED)
                .whenPublishingA(new PublishMarkedUnknown(ID, 1, ROOT, ALICE))
                .expectActiveSagas(0)
                .expectNoScheduledDeadlines();
    }

    @Test
    void aDecidedRowWhoseResultWasNotRecordedGetsItSentAgainAndTheSagaEndsOnceTheIncidentTookIt() {
        var given = fixture.givenAPublished(REQUESTED);
        outbox.decide(ID.replayId(1), PUBLISHED);
        given.whenTimeElapses(DELAY)
                .expectDispatchedCommands(new RecordPublishResultCommand(ID, 1, PUBLISHED))
                .expectActiveSagas(0)
                .expectNoScheduledDeadlines();
    }

    @Test
    void aResultTheIncidentCouldNotTakeIsSentAgainLater() {
        fixture.setCallbackBehavior((commandPayload, commandMetaData) -> {
            throw new IllegalStateException("database away");
        });
        var given = fixture.givenAPublished(REQUESTED);
        outbox.decide(ID.replayId(1), PUBLISHED);
        given.whenTimeElapses(DELAY)
                .expectDispatchedCommands(new RecordPublishResultCommand(ID, 1, PUBLISHED))
                .expectActiveSagas(1)
                .expectScheduledDeadlineWithName(DELAY, ReplaySaga.RECONCILE);
    }

    @Test
    void aPendingRowIsLeftToThePollerAndCheckedAgainLater() {
        fixture.givenAPublished(REQUESTED)
                .whenTimeElapses(DELAY)
                .expectNoDispatchedCommands()
                .expectActiveSagas(1)
                .expectScheduledDeadlineWithName(DELAY, ReplaySaga.RECONCILE);
    }

    @Test
    void aMissingRowLeavesTheAttemptRequestedNeverGuessedFailed() {
        var given = fixture.givenAPublished(REQUESTED);
        outbox.rows.clear();
        given.whenTimeElapses(DELAY)
                .expectNoDispatchedCommands()
                .expectActiveSagas(1)
                .expectNoScheduledDeadlines();
    }

    /** Keeps rows in memory; decided as a test says. */
    static final class InMemoryOutbox extends ReplayOutbox {

        final Map<String, OutboxRow> rows = new HashMap<>();

        InMemoryOutbox() {
            super(null);
        }

        @Override
        public void add(ReplayRequested event) {
            rows.putIfAbsent(event.replayId(), new OutboxRow(event.replayId(), event.incidentId(), event.attempt(), event.sourceLocation(),
                    event.key(), event.valueHash(), event.targetGroup(), event.owner(), OutboxRow.Status.PENDING, 0, null, null, null, null));
        }

        @Override
        public Optional<OutboxRow> find(String replayId) {
            return Optional.ofNullable(rows.get(replayId));
        }

        void decide(String replayId, PublishResult result) {
            OutboxRow row = rows.get(replayId);
            rows.put(replayId, new OutboxRow(row.replayId(), row.incidentId(), row.attempt(), row.source(), row.key(), row.valueHash(),
                    row.targetGroup(), row.owner(), OutboxRow.Status.SENT, 1, null, result.publishedAt(), result.decidedAt(), null));
        }
    }
}

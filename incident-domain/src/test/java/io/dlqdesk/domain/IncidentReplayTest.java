package io.dlqdesk.domain;

import io.dlqdesk.domain.api.IncidentAcknowledged;
import io.dlqdesk.domain.api.IncidentDiscarded;
import io.dlqdesk.domain.api.IncidentResolved;
import io.dlqdesk.domain.api.PublishMarkedUnknown;
import io.dlqdesk.domain.api.PublishResultRecorded;
import io.dlqdesk.domain.api.ReplayRejected;
import io.dlqdesk.domain.api.ReplayRequested;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.OperatorAction;
import io.dlqdesk.domain.record.EventId;
import io.dlqdesk.domain.record.FailedRecord;
import io.dlqdesk.domain.record.PayloadHash;
import io.dlqdesk.domain.record.RecordKey;
import io.dlqdesk.domain.record.RecordLocation;
import io.dlqdesk.domain.replay.EvaluateReplayCommand;
import io.dlqdesk.domain.replay.KeyFreshness;
import io.dlqdesk.domain.replay.PublishResult;
import io.dlqdesk.domain.replay.ReplayOutcome;
import io.dlqdesk.domain.replay.ReplayPolicy;
import io.dlqdesk.domain.replay.ReplayRefusal;
import io.dlqdesk.domain.replay.RequestReplayCommand;
import io.dlqdesk.domain.replay.SourceRecordFacts;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static io.dlqdesk.domain.Samples.ALICE;
import static io.dlqdesk.domain.Samples.DEADLINE;
import static io.dlqdesk.domain.Samples.EVENT_ID;
import static io.dlqdesk.domain.Samples.HASH;
import static io.dlqdesk.domain.Samples.ID;
import static io.dlqdesk.domain.Samples.TIMESTAMP;
import static io.dlqdesk.domain.Samples.KEY;
import static io.dlqdesk.domain.Samples.NOW;
import static io.dlqdesk.domain.Samples.POLICY;
import static io.dlqdesk.domain.Samples.ROOT;
import static io.dlqdesk.domain.Samples.ROOT_KEY;
import static io.dlqdesk.domain.Samples.correlated;
import static io.dlqdesk.domain.Samples.opened;
import static io.dlqdesk.domain.Samples.reFailure;
import static io.dlqdesk.domain.Samples.replayRequested;
import static io.dlqdesk.domain.Samples.requestReplay;
import static io.dlqdesk.domain.Samples.sourceAsRecorded;

/** Requesting a replay: every condition refused and allowed, the claim rule, attempts. */
class IncidentReplayTest {

    private static final RecordLocation LOCATION = ROOT_KEY.location();

    private AggregateTestFixture<Incident> fixture;

    @BeforeEach
    void setUp() {
        fixture = new AggregateTestFixture<>(Incident.class);
    }

    private void expectRefused(List<Object> given, RequestReplayCommand command, ReplayRefusal... reasons) {
        fixture.given(given)
                .when(command)
                .expectSuccessfulHandlerExecution()
                .expectEvents(new ReplayRejected(ID, List.of(reasons), command.requestedBy()))
                .expectResultMessagePayload(ReplayOutcome.rejected(List.of(reasons)));
    }

    private void expectRefused(RequestReplayCommand command, ReplayRefusal... reasons) {
        expectRefused(List.of(opened()), command, reasons);
    }

    private void expectRequested(List<Object> given, RequestReplayCommand command, int attempt,
                                 io.dlqdesk.domain.record.FailureKey claimed) {
        fixture.given(given)
                .when(command)
                .expectSuccessfulHandlerExecution()
                .expectEvents(replayRequested(attempt, claimed, command.requestedBy()))
                .expectResultMessagePayload(ReplayOutcome.requested(attempt));
    }

    @Test
    void replayIsRequestedWhenEveryConditionHolds() {
        expectRequested(List.of(opened()), requestReplay(), 1, ROOT_KEY);
    }

    @Test
    void aSourceTopicThatDeletesTheRecordBeforeTheWindowEndsBringsTheReplaysDeadlineForward() {
        Duration retention = Duration.between(TIMESTAMP.instant(), NOW).plusHours(1); // deleted an hour from now, days before the window ends
        RequestReplayCommand command = requestReplay(sourceAsRecorded().withRetention(retention.toMillis()), POLICY, true, NOW);
        ReplayRequested window = replayRequested(1, ROOT_KEY, command.requestedBy());

        fixture.given(opened())
                .when(command)
                .expectSuccessfulHandlerExecution()
                .expectEvents(new ReplayRequested(ID, 1, ROOT_KEY, window.sourceLocation(), window.targetGroup(), window.key(),
                        window.eventId(), window.valueHash(), window.originalTimestamp(), TIMESTAMP.instant().plus(retention),
                        window.owner(), window.requestedBy()));
    }

    @Test
    void aDryRunAnswersTheSameConditionsAndRecordsNothing() {
        fixture.given(opened())
                .when(new EvaluateReplayCommand(requestReplay()))
                .expectSuccessfulHandlerExecution()
                .expectNoEvents()
                .expectResultMessagePayload(List.of());
        fixture.given(opened())
                .when(new EvaluateReplayCommand(requestReplay(sourceAsRecorded(), new ReplayPolicy(false, 3), false, NOW)))
                .expectSuccessfulHandlerExecution()
                .expectNoEvents()
                .expectResultMessagePayload(List.of(ReplayRefusal.TOPIC_NOT_ALLOWED, ReplayRefusal.REPLAY_SWITCH_OFF));
    }

    @Test
    void replayIsRefusedWithoutEventId() {
        FailedRecord noEventId = new FailedRecord(ROOT_KEY, ROOT.dlqLocation(), KEY, null, ROOT.originalTimestamp(), HASH, null);
        // the source record carries no eventId either
        var source = SourceRecordFacts.found(LOCATION, ROOT_KEY.offset(), KEY, null, HASH, TIMESTAMP);
        expectRefused(List.of(opened(noEventId)), requestReplay(source, POLICY, true, NOW),
                ReplayRefusal.EVENT_ID_UNKNOWN, ReplayRefusal.SOURCE_EVENT_ID_MISMATCH);
    }

    @Test
    void theSameRefusalAskedAgainByTheSamePrincipalWithinAMinuteIsAnsweredButNotRecordedAgain() {
        var first = requestReplay(sourceAsRecorded(), POLICY, false, NOW);
        var again = requestReplay(sourceAsRecorded(), POLICY, false, NOW.plusSeconds(59));
        fixture.given(opened(), new ReplayRejected(ID, List.of(ReplayRefusal.REPLAY_SWITCH_OFF), first.requestedBy()))
                .when(again)
                .expectSuccessfulHandlerExecution()
                .expectNoEvents()
                .expectResultMessagePayload(ReplayOutcome.rejected(List.of(ReplayRefusal.REPLAY_SWITCH_OFF)));
    }

    @Test
    void aRefusalIsRecordedAgainAfterTheWindowForAnotherPrincipalOrWithOtherReasons() {
        var first = requestReplay(sourceAsRecorded(), POLICY, false, NOW);
        List<Object> given = List.of(opened(), new ReplayRejected(ID, List.of(ReplayRefusal.REPLAY_SWITCH_OFF), first.requestedBy()));
        expectRefused(given, requestReplay(sourceAsRecorded(), POLICY, false, NOW.plusSeconds(60)), ReplayRefusal.REPLAY_SWITCH_OFF);
        var bob = new RequestReplayCommand(ID, sourceAsRecorded(), POLICY, false, Samples.LEDGER, new OperatorAction("bob", "retry", NOW));
        expectRefused(given, bob, ReplayRefusal.REPLAY_SWITCH_OFF);
        expectRefused(given, requestReplay(sourceAsRecorded(), new ReplayPolicy(false, 3), false, NOW.plusSeconds(1)),
                ReplayRefusal.TOPIC_NOT_ALLOWED, ReplayRefusal.REPLAY_SWITCH_OFF);
    }

    @Test
    void replayIsRefusedWhenTheOriginalLocationIsUnknown() {
        RecordLocation dlq = new RecordLocation("orders.dlq", 1, 12);
        FailedRecord unknown = FailedRecord.withUnknownLocation(Samples.GROUP, dlq, KEY, ROOT.eventId(), ROOT.originalTimestamp(), HASH,
                null, "kafka_dlt-original-offset: missing");
        IncidentId id = IncidentId.ofDlqRecord(dlq);
        // even a read of the only location it has, its DLQ record, returning the same bytes does not make it replayable
        var command = new RequestReplayCommand(id, SourceRecordFacts.found(dlq, 12, KEY, ROOT.eventId(), HASH, TIMESTAMP), POLICY, true,
                Samples.LEDGER, ALICE);
        fixture.given(Samples.opened(unknown))
                .when(command)
                .expectEvents(new ReplayRejected(id, List.of(ReplayRefusal.LOCATION_UNKNOWN, ReplayRefusal.SOURCE_LOCATION_MISMATCH), ALICE));
    }

    @Test
    void replayIsRefusedWhenTheLocationIsOutOfTheLogsRange() {
        expectRefused(requestReplay(SourceRecordFacts.outOfRange(LOCATION), POLICY, true, NOW),
                ReplayRefusal.LOCATION_INVALID, ReplayRefusal.SOURCE_RECORD_NOT_FOUND);
    }

    @Test
    void replayIsRefusedWhenTheTopicPolicyForbidsIt() {
        expectRefused(requestReplay(sourceAsRecorded(), new ReplayPolicy(false, 3), true, NOW), ReplayRefusal.TOPIC_NOT_ALLOWED);
    }

    @Test
    void replayIsRefusedWithoutOriginalTimestampBecauseThereIsNoDeadline() {
        FailedRecord noTimestamp = new FailedRecord(ROOT_KEY, ROOT.dlqLocation(), KEY, EVENT_ID, null, HASH, null);
        expectRefused(List.of(opened(noTimestamp)), requestReplay(),
                ReplayRefusal.ORIGINAL_TIMESTAMP_UNKNOWN, ReplayRefusal.AFTER_DEADLINE, ReplayRefusal.SOURCE_TIMESTAMP_MISMATCH);
    }

    @Test
    void replayIsRefusedAfterDeadline() {
        expectRefused(requestReplay(sourceAsRecorded(), POLICY, true, DEADLINE), ReplayRefusal.AFTER_DEADLINE);
    }

    @Test
    void replayIsAllowedJustBeforeDeadline() {
        expectRequested(List.of(opened()), requestReplay(sourceAsRecorded(), POLICY, true, DEADLINE.minusMillis(1)), 1, ROOT_KEY);
    }

    @Test
    void replayIsRefusedWhenTheSourceRecordIsGone() {
        expectRefused(requestReplay(SourceRecordFacts.notFound(LOCATION), POLICY, true, NOW), ReplayRefusal.SOURCE_RECORD_NOT_FOUND);
    }

    @Test
    void replayIsRefusedWhenTheFactsWereReadElsewhere() {
        RecordLocation elsewhere = new RecordLocation("orders", 2, ROOT_KEY.offset());
        expectRefused(requestReplay(SourceRecordFacts.found(elsewhere, ROOT_KEY.offset(), KEY, EVENT_ID, HASH, TIMESTAMP), POLICY, true, NOW),
                ReplayRefusal.SOURCE_LOCATION_MISMATCH);
    }

    @Test
    void replayIsRefusedWhenCompactionReturnsTheNextRecord() {
        expectRefused(requestReplay(SourceRecordFacts.found(LOCATION, ROOT_KEY.offset() + 1, KEY, EVENT_ID, HASH, TIMESTAMP), POLICY, true, NOW),
                ReplayRefusal.SOURCE_OFFSET_MISMATCH);
    }

    @Test
    void replayIsRefusedWhenTheKeyIsNotByteIdentical() {
        var source = SourceRecordFacts.found(LOCATION, ROOT_KEY.offset(), RecordKey.of("order-7 ".getBytes()), EVENT_ID, HASH, TIMESTAMP);
        expectRefused(requestReplay(source, POLICY, true, NOW), ReplayRefusal.SOURCE_KEY_MISMATCH);
    }

    @Test
    void replayIsRefusedWhenTheEventIdDiffers() {
        var source = SourceRecordFacts.found(LOCATION, ROOT_KEY.offset(), KEY, new EventId("evt-0002"), HASH, TIMESTAMP);
        expectRefused(requestReplay(source, POLICY, true, NOW), ReplayRefusal.SOURCE_EVENT_ID_MISMATCH);
    }

    @Test
    void replayIsRefusedWhenTheValueHashDiffers() {
        var source = SourceRecordFacts.found(LOCATION, ROOT_KEY.offset(), KEY, EVENT_ID, PayloadHash.of(new byte[] {1}), TIMESTAMP);
        expectRefused(requestReplay(source, POLICY, true, NOW), ReplayRefusal.SOURCE_VALUE_HASH_MISMATCH);
    }

    @Test
    void replayOfATombstoneIsRefused() {
        var source = SourceRecordFacts.tombstone(LOCATION, ROOT_KEY.offset(), KEY, EVENT_ID, TIMESTAMP);
        expectRefused(requestReplay(source, POLICY, true, NOW), ReplayRefusal.SOURCE_TOMBSTONE);
    }

    @Test
    void replayIsRefusedOnAResolvedIncident() {
        expectRefused(List.of(opened(), new IncidentAcknowledged(ID, ALICE), new IncidentResolved(ID, ALICE)), requestReplay(),
                ReplayRefusal.INCIDENT_CLOSED);
    }

    @Test
    void replayIsRefusedOnADiscardedIncident() {
        expectRefused(List.of(opened(), new IncidentAcknowledged(ID, ALICE), new IncidentDiscarded(ID, ALICE)), requestReplay(),
                ReplayRefusal.INCIDENT_CLOSED);
    }

    @Test
    void replayIsAllowedOnAnAcknowledgedIncident() {
        expectRequested(List.of(opened(), new IncidentAcknowledged(ID, ALICE)), requestReplay(), 1, ROOT_KEY);
    }

    @Test
    void replayIsRefusedWhileAnAttemptIsRequested() {
        expectRefused(List.of(opened(), replayRequested(1, ROOT_KEY)), requestReplay(), ReplayRefusal.REPLAY_ALREADY_REQUESTED);
    }

    @Test
    void replayIsAllowedAgainAfterPublishFailed() {
        expectRequested(List.of(opened(), replayRequested(1, ROOT_KEY),
                        new PublishResultRecorded(ID, 1, ROOT_KEY, PublishResult.failed("broker timeout", NOW))),
                requestReplay(), 2, ROOT_KEY);
    }

    @Test
    void replayIsRefusedAfterPublishedUntilTheRecordFailsAgain() {
        expectRefused(List.of(opened(), replayRequested(1, ROOT_KEY), new PublishResultRecorded(ID, 1, ROOT_KEY, Samples.published(77))),
                requestReplay(), ReplayRefusal.ALREADY_PUBLISHED);
    }

    @Test
    void replayAfterACorrelatedReFailureClaimsTheReFailure() {
        FailedRecord refailure = reFailure(77);
        expectRequested(List.of(opened(), replayRequested(1, ROOT_KEY),
                        new PublishResultRecorded(ID, 1, ROOT_KEY, Samples.published(77)), correlated(refailure, 1)),
                requestReplay(), 2, refailure.failureKey());
    }

    @Test
    void theLatestCorrelatedReFailureIsClaimed() {
        FailedRecord first = reFailure(77);
        FailedRecord second = reFailure(78);
        expectRequested(List.of(opened(), replayRequested(1, ROOT_KEY), correlated(first, 1), correlated(second, 1),
                        new PublishResultRecorded(ID, 1, ROOT_KEY, Samples.published(77))),
                requestReplay(), 2, second.failureKey());
    }

    @Test
    void replayIsRefusedAfterPublishUnknown() {
        expectRefused(List.of(opened(), replayRequested(1, ROOT_KEY), new PublishMarkedUnknown(ID, 1, ROOT_KEY, ALICE)),
                requestReplay(), ReplayRefusal.PUBLISH_UNKNOWN);
    }

    @Test
    void replayIsAllowedAfterPublishUnknownOnceTheRecordHasFailedAgain() {
        FailedRecord refailure = reFailure(77);
        expectRequested(List.of(opened(), replayRequested(1, ROOT_KEY), new PublishMarkedUnknown(ID, 1, ROOT_KEY, ALICE),
                correlated(refailure, 1)), requestReplay(), 2, refailure.failureKey());
    }

    @Test
    void anOlderAttemptStillRequestedBlocksReplayOfANewerClaim() {
        // attempt 1's result was never recorded (crash after the broker's ack), but it already re-failed
        expectRefused(List.of(opened(), replayRequested(1, ROOT_KEY), correlated(reFailure(77), 1)), requestReplay(),
                ReplayRefusal.REPLAY_ALREADY_REQUESTED);
    }

    @Test
    void replayIsRefusedWhenTheSwitchIsOff() {
        expectRefused(requestReplay(sourceAsRecorded(), POLICY, false, NOW), ReplayRefusal.REPLAY_SWITCH_OFF);
    }

    @Test
    void replayIsRefusedAtTheMaximumNumberOfAttempts() {
        FailedRecord refailure = reFailure(77);
        expectRefused(List.of(opened(), replayRequested(1, ROOT_KEY),
                        new PublishResultRecorded(ID, 1, ROOT_KEY, PublishResult.failed("timeout", NOW)), correlated(refailure, 1)),
                requestReplay(sourceAsRecorded(), new ReplayPolicy(true, 1), true, NOW), ReplayRefusal.MAX_ATTEMPTS_REACHED);
    }

    @Test
    void replayIsAllowedBelowTheMaximumNumberOfAttempts() {
        expectRequested(List.of(opened(), replayRequested(1, ROOT_KEY),
                        new PublishResultRecorded(ID, 1, ROOT_KEY, PublishResult.failed("timeout", NOW))),
                requestReplay(sourceAsRecorded(), new ReplayPolicy(true, 2), true, NOW), 2, ROOT_KEY);
    }

    @Test
    void aRefusalListsEveryFailedCondition() {
        var source = SourceRecordFacts.found(LOCATION, ROOT_KEY.offset() + 1, RecordKey.NONE, EVENT_ID, HASH, TIMESTAMP);
        expectRefused(List.of(opened(), new IncidentAcknowledged(ID, ALICE), new IncidentResolved(ID, ALICE)),
                requestReplay(source, new ReplayPolicy(false, 1), false, DEADLINE.plusSeconds(1)),
                ReplayRefusal.TOPIC_NOT_ALLOWED, ReplayRefusal.AFTER_DEADLINE, ReplayRefusal.SOURCE_OFFSET_MISMATCH,
                ReplayRefusal.SOURCE_KEY_MISMATCH, ReplayRefusal.INCIDENT_CLOSED, ReplayRefusal.REPLAY_SWITCH_OFF);
    }

    @Test
    void aRefusalIsNotAnAttempt() {
        expectRequested(List.of(opened(), new ReplayRejected(ID, List.of(ReplayRefusal.REPLAY_SWITCH_OFF), ALICE)),
                requestReplay(sourceAsRecorded(), new ReplayPolicy(true, 1), true, NOW), 1, ROOT_KEY);
    }

    @Test
    void theRequestedAttemptCarriesWhatTheSagaAndCorrelationNeed() {
        Instant at = DEADLINE.minusSeconds(5);
        var command = requestReplay(sourceAsRecorded(), POLICY, true, at);
        fixture.given(opened())
                .when(command)
                .expectEvents(new io.dlqdesk.domain.api.ReplayRequested(ID, 1, ROOT_KEY, LOCATION, Samples.GROUP, KEY, EVENT_ID,
                        HASH, Samples.TIMESTAMP, DEADLINE, Samples.LEDGER, command.requestedBy()));
    }

    @Test
    void aStaleKeyIsRefusedNamingTheNewerOffsetAndRecordedWithWhatTheCheckFound() {
        RequestReplayCommand stale = withFreshness(KeyFreshness.stale(57, "offset 57 has the key; the group committed 60"), false);
        fixture.given(opened())
                .when(stale)
                .expectSuccessfulHandlerExecution()
                .expectEvents(new ReplayRejected(ID, List.of(ReplayRefusal.STALE_KEY), stale.requestedBy(), stale.keyFreshness()))
                .expectResultMessagePayload(ReplayOutcome.rejected(List.of(ReplayRefusal.STALE_KEY), stale.keyFreshness()));
    }

    @Test
    void anOverriddenStaleKeyIsRequestedAndTheOverrideIsRecorded() {
        RequestReplayCommand overridden = withFreshness(KeyFreshness.stale(57, "offset 57"), true);
        ReplayRequested plain = replayRequested(1, ROOT_KEY, overridden.requestedBy());
        fixture.given(opened())
                .when(overridden)
                .expectSuccessfulHandlerExecution()
                .expectEvents(new ReplayRequested(plain.incidentId(), 1, plain.claimedFailure(), plain.sourceLocation(), plain.targetGroup(),
                        plain.key(), plain.eventId(), plain.valueHash(), plain.originalTimestamp(), plain.replayDeadline(), plain.owner(),
                        plain.requestedBy(), overridden.keyFreshness(), true));
    }

    @Test
    void aFreshKeyIsRequestedWithTheCheckRecordedAndNoOverride() {
        RequestReplayCommand fresh = withFreshness(KeyFreshness.fresh("no later record with the key"), true);
        ReplayRequested plain = replayRequested(1, ROOT_KEY, fresh.requestedBy());
        fixture.given(opened())
                .when(fresh)
                .expectSuccessfulHandlerExecution()
                .expectEvents(new ReplayRequested(plain.incidentId(), 1, plain.claimedFailure(), plain.sourceLocation(), plain.targetGroup(),
                        plain.key(), plain.eventId(), plain.valueHash(), plain.originalTimestamp(), plain.replayDeadline(), plain.owner(),
                        plain.requestedBy(), fresh.keyFreshness(), false));
    }

    private static RequestReplayCommand withFreshness(KeyFreshness freshness, boolean override) {
        RequestReplayCommand plain = requestReplay();
        return new RequestReplayCommand(plain.incidentId(), plain.source(), plain.policy(), plain.switchOn(), plain.ledgerName(),
                plain.requestedBy(), freshness, override);
    }
}

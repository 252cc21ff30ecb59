package io.dlqdesk.domain;

import io.dlqdesk.domain.api.DuplicateDeliveryRecorded;
import io.dlqdesk.domain.api.IncidentAcknowledged;
import io.dlqdesk.domain.api.IncidentDiscarded;
import io.dlqdesk.domain.api.IncidentReopened;
import io.dlqdesk.domain.api.IncidentResolved;
import io.dlqdesk.domain.api.PublishResultRecorded;
import io.dlqdesk.domain.api.RetryFailureCorrelated;
import io.dlqdesk.domain.correlation.CorrelateRetryFailureCommand;
import io.dlqdesk.domain.correlation.CorrelationMismatch;
import io.dlqdesk.domain.incident.FailureRecording;
import io.dlqdesk.domain.incident.IncidentStatus;
import io.dlqdesk.domain.record.EventId;
import io.dlqdesk.domain.record.ExceptionSummary;
import io.dlqdesk.domain.record.FailedRecord;
import io.dlqdesk.domain.record.PayloadHash;
import io.dlqdesk.domain.record.RecordLocation;
import io.dlqdesk.domain.replay.ReplayHeaders;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.dlqdesk.domain.Samples.ALICE;
import static io.dlqdesk.domain.Samples.DEADLINE;
import static io.dlqdesk.domain.Samples.EVENT_ID;
import static io.dlqdesk.domain.Samples.KEY;
import static io.dlqdesk.domain.Samples.ID;
import static io.dlqdesk.domain.Samples.LEDGER;
import static io.dlqdesk.domain.Samples.NOW;
import static io.dlqdesk.domain.Samples.ROOT;
import static io.dlqdesk.domain.Samples.ROOT_KEY;
import static io.dlqdesk.domain.Samples.correlate;
import static io.dlqdesk.domain.Samples.correlated;
import static io.dlqdesk.domain.Samples.opened;
import static io.dlqdesk.domain.Samples.published;
import static io.dlqdesk.domain.Samples.reFailure;
import static io.dlqdesk.domain.Samples.replayRequested;
import static org.assertj.core.api.Assertions.assertThat;

/** Re-failures of replays: correlation, reopen, idempotency, one open incident however many re-failures. */
class IncidentCorrelationTest {

    private static final FailedRecord REFAILURE = reFailure(77);

    private AggregateTestFixture<Incident> fixture;

    @BeforeEach
    void setUp() {
        fixture = new AggregateTestFixture<>(Incident.class);
    }

    private static List<Object> replayedOnce() {
        return List.of(opened(), replayRequested(1, ROOT_KEY), new PublishResultRecorded(ID, 1, ROOT_KEY, published(77)));
    }

    private static List<Object> replayedOnceThen(Object... more) {
        var events = new java.util.ArrayList<>(replayedOnce());
        events.addAll(List.of(more));
        return events;
    }

    @Test
    void aReFailurePassingAllNineChecksJoinsTheIncidentAndInheritsItsDeadline() {
        fixture.given(replayedOnce())
                .when(correlate(REFAILURE, 1))
                .expectResultMessagePayload(FailureRecording.CORRELATED)
                .expectEvents(correlated(REFAILURE, 1));
    }

    @Test
    void aReFailureOfAnOlderAttemptStillCorrelatesToThatAttempt() {
        var second = reFailure(90);
        fixture.given(replayedOnceThen(correlated(REFAILURE, 1), replayRequested(2, REFAILURE.failureKey())))
                .when(correlate(second, 1))
                .expectEvents(correlated(second, 1));
    }

    @Test
    void aReFailureIsCorrelatedEvenBeforeThePublishResultArrives() {
        // the broker took it, the poller crashed before recording: the re-failure proves it went out
        fixture.given(opened(), replayRequested(1, ROOT_KEY))
                .when(correlate(REFAILURE, 1))
                .expectEvents(correlated(REFAILURE, 1));
    }

    @Test
    void aMismatchedReFailureIsRefusedWithEveryFailedCheckSoTheCallerOpensASeparateIncident() {
        var tampered = new FailedRecord(REFAILURE.failureKey(), REFAILURE.dlqLocation(), REFAILURE.key(), REFAILURE.eventId(),
                REFAILURE.originalTimestamp(), PayloadHash.of(new byte[] {9}), REFAILURE.exception());
        fixture.given(replayedOnce())
                .when(new CorrelateRetryFailureCommand(ID, tampered, new ReplayHeaders(ID.value(), "1", "other-desk", "billing"),
                        LEDGER, NOW))
                .expectNoEvents()
                .expectException(Samples.notCorrelated(tampered.failureKey(), CorrelationMismatch.OWNER_MISMATCH,
                        CorrelationMismatch.VALUE_HASH_MISMATCH));
    }

    @Test
    void aReFailureNamingAnAttemptThatWasNeverMadeIsRefused() {
        fixture.given(opened())
                .when(correlate(REFAILURE, 1))
                .expectNoEvents()
                .expectException(Samples.notCorrelated(REFAILURE.failureKey(), CorrelationMismatch.ATTEMPT_MISMATCH, CorrelationMismatch.TARGET_GROUP_MISMATCH,
                                CorrelationMismatch.VALUE_HASH_MISMATCH));
    }

    @Test
    void theSameReFailureDeliveredTwiceIsAnsweredAlreadyRecordedAndProducesNoNewEvent() {
        fixture.given(replayedOnceThen(correlated(REFAILURE, 1)))
                .when(correlate(REFAILURE, 1))
                .expectSuccessfulHandlerExecution()
                .expectResultMessagePayload(FailureRecording.ALREADY_RECORDED)
                .expectNoEvents();
    }

    @Test
    void theSameReFailureFromAnotherDlqRecordIsCountedAsADuplicateDelivery() {
        var again = new FailedRecord(REFAILURE.failureKey(), new RecordLocation("orders.dlq", 1, 5000), REFAILURE.key(),
                REFAILURE.eventId(), REFAILURE.originalTimestamp(), REFAILURE.valueHash(), new ExceptionSummary("x.Other", "other text"));
        fixture.given(replayedOnceThen(correlated(REFAILURE, 1)))
                .when(correlate(again, 1))
                .expectResultMessagePayload(FailureRecording.DUPLICATE_DELIVERY)
                .expectEvents(new DuplicateDeliveryRecorded(ID, REFAILURE.failureKey(), again.dlqLocation(), NOW.plusSeconds(60)));
    }

    @Test
    void aDuplicateDeliveryReadAgainFromItsDlqRecordAddsNothing() {
        var again = new FailedRecord(REFAILURE.failureKey(), new RecordLocation("orders.dlq", 1, 5000), REFAILURE.key(),
                REFAILURE.eventId(), REFAILURE.originalTimestamp(), REFAILURE.valueHash(), REFAILURE.exception());
        fixture.given(replayedOnceThen(correlated(REFAILURE, 1),
                        new DuplicateDeliveryRecorded(ID, REFAILURE.failureKey(), again.dlqLocation(), NOW)))
                .when(correlate(again, 1))
                .expectSuccessfulHandlerExecution()
                .expectNoEvents();
    }

    @Test
    void aDuplicateDeliveryDoesNotReopenAClosedIncident() {
        var again = new FailedRecord(REFAILURE.failureKey(), new RecordLocation("orders.dlq", 1, 5000), REFAILURE.key(),
                REFAILURE.eventId(), REFAILURE.originalTimestamp(), REFAILURE.valueHash(), REFAILURE.exception());
        fixture.given(replayedOnceThen(correlated(REFAILURE, 1), new IncidentAcknowledged(ID, ALICE), new IncidentResolved(ID, ALICE)))
                .when(correlate(again, 1))
                .expectEvents(new DuplicateDeliveryRecorded(ID, REFAILURE.failureKey(), again.dlqLocation(), NOW.plusSeconds(60)))
                .expectState(incident -> assertThat(incident).extracting("status").isEqualTo(IncidentStatus.RESOLVED));
    }

    @Test
    void aReFailureClaimingTheRootsLocationIsRefusedAsTakenEvenWhenTheNineChecksPass() {
        // a replay is published at a new offset: nothing that re-failed after a replay can sit at the root's location
        fixture.given(replayedOnce())
                .when(correlate(new FailedRecord(ROOT_KEY, new RecordLocation("orders.dlq", 0, 300), KEY, ROOT.eventId(),
                        ROOT.originalTimestamp(), ROOT.valueHash(), null), 1))
                .expectNoEvents()
                .expectException(Samples.notCorrelated(ROOT_KEY, CorrelationMismatch.FAILURE_KEY_TAKEN));
    }

    @Test
    void aForgedReFailureAtTheRootsLocationReportsTheCheckItFailsAndTheTakenKey() {
        var otherEventId = new FailedRecord(ROOT_KEY, new RecordLocation("orders.dlq", 0, 301), KEY, new EventId("evt-forged"),
                ROOT.originalTimestamp(), ROOT.valueHash(), null);
        fixture.given(replayedOnce())
                .when(correlate(otherEventId, 1))
                .expectNoEvents()
                .expectException(Samples.notCorrelated(ROOT_KEY, CorrelationMismatch.EVENT_ID_MISMATCH, CorrelationMismatch.FAILURE_KEY_TAKEN));
    }

    @Test
    void aReFailureAtAKnownLocationNamingAnotherAttemptIsNotADuplicate() {
        // attempt 2 exists and would pass the nine checks, but the failure at this location was attempt 1's
        fixture.given(replayedOnceThen(correlated(REFAILURE, 1), replayRequested(2, REFAILURE.failureKey()),
                        new PublishResultRecorded(ID, 2, REFAILURE.failureKey(), published(91))))
                .when(correlate(new FailedRecord(REFAILURE.failureKey(), new RecordLocation("orders.dlq", 0, 400), KEY, EVENT_ID,
                        REFAILURE.originalTimestamp(), REFAILURE.valueHash(), null), 2))
                .expectNoEvents()
                .expectException(Samples.notCorrelated(REFAILURE.failureKey(), CorrelationMismatch.FAILURE_KEY_TAKEN));
    }

    @Test
    void lateRetryFailureReopensResolvedIncident() {
        fixture.given(replayedOnceThen(new IncidentAcknowledged(ID, ALICE), new IncidentResolved(ID, ALICE)))
                .when(correlate(REFAILURE, 1))
                .expectEvents(correlated(REFAILURE, 1),
                        new IncidentReopened(ID, REFAILURE.failureKey(), IncidentStatus.RESOLVED, NOW.plusSeconds(60)))
                .expectState(incident -> assertThat(incident).extracting("status").isEqualTo(IncidentStatus.OPEN));
    }

    @Test
    void lateRetryFailureReopensDiscardedIncident() {
        fixture.given(replayedOnceThen(new IncidentAcknowledged(ID, ALICE), new IncidentDiscarded(ID, ALICE)))
                .when(correlate(REFAILURE, 1))
                .expectEvents(correlated(REFAILURE, 1),
                        new IncidentReopened(ID, REFAILURE.failureKey(), IncidentStatus.DISCARDED, NOW.plusSeconds(60)));
    }

    @Test
    void aReFailureDoesNotReopenAnAcknowledgedIncident() {
        fixture.given(replayedOnceThen(new IncidentAcknowledged(ID, ALICE)))
                .when(correlate(REFAILURE, 1))
                .expectEvents(correlated(REFAILURE, 1))
                .expectState(incident -> assertThat(incident).extracting("status").isEqualTo(IncidentStatus.ACKED));
    }

    @Test
    void manyReFailuresLeaveOneOpenIncident() {
        // the open count is per incident: re-failures never open another one, nor reopen an open one
        fixture.given(replayedOnceThen(correlated(REFAILURE, 1)))
                .when(correlate(reFailure(78), 1))
                .expectEvents(correlated(reFailure(78), 1));
    }

    @Test
    void aMismatchedLateReFailureDoesNotReopenAClosedIncident() {
        fixture.given(replayedOnceThen(new IncidentAcknowledged(ID, ALICE), new IncidentResolved(ID, ALICE)))
                .when(new CorrelateRetryFailureCommand(ID, REFAILURE, new ReplayHeaders(ID.value(), "1", LEDGER, "shipping"), LEDGER, NOW))
                .expectNoEvents()
                .expectException(RetryFailureNotCorrelatedException.class);
    }
}

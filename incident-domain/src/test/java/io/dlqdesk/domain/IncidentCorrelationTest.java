package io.dlqdesk.domain;

import io.dlqdesk.domain.api.CorrelateRetryFailureCommand;
import io.dlqdesk.domain.api.CorrelationMismatch;
import io.dlqdesk.domain.api.FailedRecord;
import io.dlqdesk.domain.api.IncidentAcknowledged;
import io.dlqdesk.domain.api.IncidentDiscarded;
import io.dlqdesk.domain.api.IncidentReopened;
import io.dlqdesk.domain.api.IncidentResolved;
import io.dlqdesk.domain.api.IncidentStatus;
import io.dlqdesk.domain.api.PayloadHash;
import io.dlqdesk.domain.api.PublishResultRecorded;
import io.dlqdesk.domain.api.ReplayHeaders;
import io.dlqdesk.domain.api.RetryFailureCorrelated;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.dlqdesk.domain.Samples.ALICE;
import static io.dlqdesk.domain.Samples.DEADLINE;
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
                .expectEvents(new RetryFailureCorrelated(ID, REFAILURE, 1, NOW.plusSeconds(60), DEADLINE));
    }

    @Test
    void aReFailureOfAnOlderAttemptStillCorrelatesToThatAttempt() {
        var second = reFailure(90);
        fixture.given(replayedOnceThen(correlated(REFAILURE, 1), replayRequested(2, REFAILURE.failureKey())))
                .when(correlate(second, 1))
                .expectEvents(new RetryFailureCorrelated(ID, second, 1, NOW.plusSeconds(60), DEADLINE));
    }

    @Test
    void aReFailureIsCorrelatedEvenBeforeThePublishResultArrives() {
        // the broker took it, the poller crashed before recording: the re-failure proves it went out
        fixture.given(opened(), replayRequested(1, ROOT_KEY))
                .when(correlate(REFAILURE, 1))
                .expectEvents(new RetryFailureCorrelated(ID, REFAILURE, 1, NOW.plusSeconds(60), DEADLINE));
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
    void theSameReFailureDeliveredTwiceProducesNoNewEvent() {
        fixture.given(replayedOnceThen(correlated(REFAILURE, 1)))
                .when(correlate(REFAILURE, 1))
                .expectSuccessfulHandlerExecution()
                .expectNoEvents();
    }

    @Test
    void theRootFailureDeliveredAsAReFailureProducesNoNewEvent() {
        fixture.given(replayedOnce())
                .when(correlate(ROOT, 1))
                .expectSuccessfulHandlerExecution()
                .expectNoEvents();
    }

    @Test
    void lateRetryFailureReopensResolvedIncident() {
        fixture.given(replayedOnceThen(new IncidentAcknowledged(ID, ALICE), new IncidentResolved(ID, ALICE)))
                .when(correlate(REFAILURE, 1))
                .expectEvents(new RetryFailureCorrelated(ID, REFAILURE, 1, NOW.plusSeconds(60), DEADLINE),
                        new IncidentReopened(ID, REFAILURE.failureKey(), IncidentStatus.RESOLVED, NOW.plusSeconds(60)))
                .expectState(incident -> assertThat(incident).extracting("status").isEqualTo(IncidentStatus.OPEN));
    }

    @Test
    void lateRetryFailureReopensDiscardedIncident() {
        fixture.given(replayedOnceThen(new IncidentAcknowledged(ID, ALICE), new IncidentDiscarded(ID, ALICE)))
                .when(correlate(REFAILURE, 1))
                .expectEvents(new RetryFailureCorrelated(ID, REFAILURE, 1, NOW.plusSeconds(60), DEADLINE),
                        new IncidentReopened(ID, REFAILURE.failureKey(), IncidentStatus.DISCARDED, NOW.plusSeconds(60)));
    }

    @Test
    void aReFailureDoesNotReopenAnAcknowledgedIncident() {
        fixture.given(replayedOnceThen(new IncidentAcknowledged(ID, ALICE)))
                .when(correlate(REFAILURE, 1))
                .expectEvents(new RetryFailureCorrelated(ID, REFAILURE, 1, NOW.plusSeconds(60), DEADLINE))
                .expectState(incident -> assertThat(incident).extracting("status").isEqualTo(IncidentStatus.ACKED));
    }

    @Test
    void manyReFailuresLeaveOneOpenIncident() {
        // the open count is per incident: re-failures never open another one, nor reopen an open one
        fixture.given(replayedOnceThen(correlated(REFAILURE, 1)))
                .when(correlate(reFailure(78), 1))
                .expectEvents(new RetryFailureCorrelated(ID, reFailure(78), 1, NOW.plusSeconds(60), DEADLINE));
    }

    @Test
    void aMismatchedLateReFailureDoesNotReopenAClosedIncident() {
        fixture.given(replayedOnceThen(new IncidentAcknowledged(ID, ALICE), new IncidentResolved(ID, ALICE)))
                .when(new CorrelateRetryFailureCommand(ID, REFAILURE, new ReplayHeaders(ID.value(), "1", LEDGER, "shipping"), LEDGER, NOW))
                .expectNoEvents()
                .expectException(RetryFailureNotCorrelatedException.class);
    }
}

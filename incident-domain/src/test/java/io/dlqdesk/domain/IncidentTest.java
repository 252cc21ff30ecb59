package io.dlqdesk.domain;

import io.dlqdesk.domain.api.CorrelationMismatch;
import io.dlqdesk.domain.api.FailedRecord;
import io.dlqdesk.domain.api.IncidentId;
import io.dlqdesk.domain.api.IncidentOpened;
import io.dlqdesk.domain.api.OpenIncidentCommand;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.dlqdesk.domain.Samples.DEADLINE;
import static io.dlqdesk.domain.Samples.DETECTED;
import static io.dlqdesk.domain.Samples.ROOT;
import static io.dlqdesk.domain.Samples.WINDOW;
import static io.dlqdesk.domain.Samples.reFailure;

/** Opening an incident. */
class IncidentTest {

    private AggregateTestFixture<Incident> fixture;

    @BeforeEach
    void setUp() {
        fixture = new AggregateTestFixture<>(Incident.class);
    }

    @Test
    void openingAnIncidentRecordsTheFailureUnderItsDerivedIdWithItsDeadline() {
        fixture.givenNoPriorActivity()
                .when(Samples.open())
                .expectSuccessfulHandlerExecution()
                .expectEvents(new IncidentOpened(IncidentId.of(ROOT.failureKey()), ROOT, DETECTED, DEADLINE, List.of()));
    }

    @Test
    void theReplayDeadlineIsTheOriginalTimestampPlusTheWindowGiven() {
        fixture.givenNoPriorActivity()
                .when(OpenIncidentCommand.forFailure(ROOT, WINDOW.plusHours(1), DETECTED))
                .expectEvents(new IncidentOpened(Samples.ID, ROOT, DETECTED, DEADLINE.plusSeconds(3600), List.of()));
    }

    @Test
    void aFailureWithoutOriginalTimestampGetsNoDeadline() {
        FailedRecord noTimestamp = new FailedRecord(ROOT.failureKey(), ROOT.dlqLocation(), ROOT.key(), ROOT.eventId(),
                null, ROOT.valueHash(), null);
        fixture.givenNoPriorActivity()
                .when(OpenIncidentCommand.forFailure(noTimestamp, WINDOW, DETECTED))
                .expectEvents(new IncidentOpened(Samples.ID, noTimestamp, DETECTED, null, List.of()));
    }

    @Test
    void theSameFailureDeliveredTwiceProducesNoNewEvent() {
        fixture.given(Samples.opened())
                .when(Samples.open())
                .expectSuccessfulHandlerExecution()
                .expectNoEvents();
    }

    @Test
    void anUncorrelatedReFailureOpensItsOwnIncidentThatRecordsTheFailedChecksAndItsOwnDeadline() {
        FailedRecord failure = reFailure(500L);
        var mismatches = List.of(CorrelationMismatch.OWNER_MISMATCH, CorrelationMismatch.VALUE_HASH_MISMATCH);
        fixture.givenNoPriorActivity()
                .when(OpenIncidentCommand.forUncorrelatedRetryFailure(failure, WINDOW, DETECTED, mismatches))
                .expectEvents(new IncidentOpened(IncidentId.of(failure.failureKey()), failure, DETECTED, DEADLINE, mismatches));
    }
}

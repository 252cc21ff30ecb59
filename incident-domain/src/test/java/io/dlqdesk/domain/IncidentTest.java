package io.dlqdesk.domain;

import io.dlqdesk.domain.api.DuplicateDeliveryRecorded;
import io.dlqdesk.domain.api.IncidentOpened;
import io.dlqdesk.domain.correlation.CorrelationMismatch;
import io.dlqdesk.domain.incident.FailureRecording;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.OpenIncidentCommand;
import io.dlqdesk.domain.incident.OpenNewIncidentCommand;
import io.dlqdesk.domain.record.EventId;
import io.dlqdesk.domain.record.FailedRecord;
import io.dlqdesk.domain.record.RecordLocation;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

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
                .expectResultMessagePayload(FailureRecording.OPENED)
                .expectEvents(new IncidentOpened(IncidentId.of(ROOT.failureKey()), ROOT, DETECTED, DEADLINE, List.of()));
    }

    @Test
    void openingANewIncidentWithoutALoadRecordsTheSameEventAsOpeningOne() {
        fixture.givenNoPriorActivity()
                .when(new OpenNewIncidentCommand(Samples.open()))
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
    void theSameDlqRecordReadAgainIsAnsweredAlreadyRecordedAndProducesNoNewEvent() {
        fixture.given(Samples.opened())
                .when(Samples.open())
                .expectSuccessfulHandlerExecution()
                .expectResultMessagePayload(FailureRecording.ALREADY_RECORDED)
                .expectNoEvents();
    }

    @Test
    void anUncorrelatedReFailureOpensItsOwnIncidentThatRecordsTheFailedChecksItsHeadersAndItsOwnDeadline() {
        FailedRecord failure = reFailure(500L);
        var mismatches = List.of(CorrelationMismatch.OWNER_MISMATCH, CorrelationMismatch.VALUE_HASH_MISMATCH);
        fixture.givenNoPriorActivity()
                .when(OpenIncidentCommand.forUncorrelatedRetryFailure(failure, WINDOW, DETECTED, mismatches, Samples.headers(1)))
                .expectEvents(new IncidentOpened(IncidentId.of(failure.failureKey()), failure, DETECTED, DEADLINE, mismatches,
                        Samples.headers(1)));
    }

    @Test
    void theSameFailureInAnotherDlqRecordIsCountedAsADuplicateDelivery() {
        FailedRecord again = new FailedRecord(ROOT.failureKey(), new RecordLocation("orders.dlq", 2, 77), ROOT.key(), ROOT.eventId(),
                ROOT.originalTimestamp(), ROOT.valueHash(), null);
        fixture.given(Samples.opened())
                .when(OpenIncidentCommand.forFailure(again, WINDOW, DETECTED.plusSeconds(5)))
                .expectResultMessagePayload(FailureRecording.DUPLICATE_DELIVERY)
                .expectEvents(new DuplicateDeliveryRecorded(Samples.ID, ROOT.failureKey(), again.dlqLocation(), DETECTED.plusSeconds(5)));
    }

    @Test
    void anotherRecordUnderATakenFailureKeyIsRefusedSoTheCallerKeepsItElsewhere() {
        FailedRecord other = new FailedRecord(ROOT.failureKey(), new RecordLocation("orders.dlq", 2, 78), ROOT.key(),
                new EventId("evt-other"), ROOT.originalTimestamp(), ROOT.valueHash(), null);
        fixture.given(Samples.opened())
                .when(OpenIncidentCommand.forFailure(other, WINDOW, DETECTED))
                .expectNoEvents()
                .expectException(Samples.refused(IncidentErrorCode.FAILURE_KEY_TAKEN));
    }

    @Test
    void aRecordWhoseFailureKeyIsTakenOpensKeyedByItsDlqRecordWithTheReason() {
        FailedRecord other = new FailedRecord(ROOT.failureKey(), new RecordLocation("orders.dlq", 2, 78), ROOT.key(),
                new EventId("evt-other"), ROOT.originalTimestamp(), ROOT.valueHash(), null);
        OpenIncidentCommand command = OpenIncidentCommand.forFailure(other, WINDOW, DETECTED).keyedByDlqRecord();
        assertThat(command.incidentId()).isNotEqualTo(Samples.ID).isEqualTo(IncidentId.ofDlqRecord(other.dlqLocation()));
        fixture.givenNoPriorActivity()
                .when(command)
                .expectEvents(new IncidentOpened(IncidentId.ofDlqRecord(other.dlqLocation()), other, DETECTED, DEADLINE,
                        List.of(CorrelationMismatch.FAILURE_KEY_TAKEN)));
    }

    @Test
    void aFailureWithUnknownLocationOpensKeyedByItsDlqRecord() {
        RecordLocation dlq = new RecordLocation("orders.dlq", 1, 12);
        FailedRecord failure = FailedRecord.withUnknownLocation("billing", dlq, ROOT.key(), ROOT.eventId(), ROOT.originalTimestamp(),
                ROOT.valueHash(), null, "kafka_dlt-original-offset: missing");
        fixture.givenNoPriorActivity()
                .when(OpenIncidentCommand.forFailure(failure, WINDOW, DETECTED))
                .expectEvents(new IncidentOpened(IncidentId.ofDlqRecord(dlq), failure, DETECTED, DEADLINE, List.of()));
    }
}

package io.dlqdesk.domain;

import io.dlqdesk.domain.api.IncidentAcknowledged;
import io.dlqdesk.domain.api.PublishMarkedUnknown;
import io.dlqdesk.domain.api.PublishResultRecorded;
import io.dlqdesk.domain.api.ReplayConsumptionWaived;
import io.dlqdesk.domain.incident.ResolveIncidentCommand;
import io.dlqdesk.domain.replay.MarkPublishUnknownCommand;
import io.dlqdesk.domain.replay.PublishResult;
import io.dlqdesk.domain.replay.RecordPublishResultCommand;
import io.dlqdesk.domain.replay.WaiveReplayConsumptionCommand;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static io.dlqdesk.domain.Samples.ALICE;
import static io.dlqdesk.domain.Samples.ID;
import static io.dlqdesk.domain.Samples.NOW;
import static io.dlqdesk.domain.Samples.ROOT_KEY;
import static io.dlqdesk.domain.Samples.correlated;
import static io.dlqdesk.domain.Samples.opened;
import static io.dlqdesk.domain.Samples.published;
import static io.dlqdesk.domain.Samples.reFailure;
import static io.dlqdesk.domain.Samples.replayRequested;
import static org.assertj.core.api.Assertions.assertThat;

/** Publish status of replay attempts: results, PUBLISH_UNKNOWN, idempotency. */
class IncidentPublishTest {

    private static final PublishResult FAILED = PublishResult.failed("5 tries, broker timeout", NOW.plusSeconds(9));

    private AggregateTestFixture<Incident> fixture;

    @BeforeEach
    void setUp() {
        fixture = new AggregateTestFixture<>(Incident.class);
    }


    @Test
    void aPublishedResultIsRecordedOnTheClaimedFailure() {
        fixture.given(opened(), replayRequested(1, ROOT_KEY))
                .when(new RecordPublishResultCommand(ID, 1, published(77)))
                .expectEvents(new PublishResultRecorded(ID, 1, ROOT_KEY, published(77)));
    }

    @Test
    void aFailedResultIsRecordedWithItsReasonAndDecisionTime() {
        fixture.given(opened(), replayRequested(1, ROOT_KEY))
                .when(new RecordPublishResultCommand(ID, 1, FAILED))
                .expectEvents(new PublishResultRecorded(ID, 1, ROOT_KEY, FAILED));
    }

    @Test
    void theResultBelongsToTheFailureTheAttemptClaimed() {
        var refailure = reFailure(77);
        fixture.given(opened(), replayRequested(1, ROOT_KEY), new PublishResultRecorded(ID, 1, ROOT_KEY, published(77)),
                        correlated(refailure, 1), replayRequested(2, refailure.failureKey()))
                .when(new RecordPublishResultCommand(ID, 2, published(90)))
                .expectEvents(new PublishResultRecorded(ID, 2, refailure.failureKey(), published(90)));
    }

    @Test
    void recordingTheSamePublishResultTwiceProducesNoNewEvent() {
        fixture.given(opened(), replayRequested(1, ROOT_KEY), new PublishResultRecorded(ID, 1, ROOT_KEY, published(77)))
                .when(new RecordPublishResultCommand(ID, 1, published(77)))
                .expectSuccessfulHandlerExecution()
                .expectNoEvents();
    }

    @Test
    void aDifferentResultForADecidedAttemptIsRefused() {
        fixture.given(opened(), replayRequested(1, ROOT_KEY), new PublishResultRecorded(ID, 1, ROOT_KEY, published(77)))
                .when(new RecordPublishResultCommand(ID, 1, FAILED))
                .expectNoEvents()
                .expectException(Samples.refused(IncidentErrorCode.PUBLISH_ALREADY_DECIDED));
    }

    @Test
    void aResultForAnAttemptMarkedUnknownIsRefused() {
        fixture.given(opened(), replayRequested(1, ROOT_KEY), new PublishMarkedUnknown(ID, 1, ROOT_KEY, ALICE))
                .when(new RecordPublishResultCommand(ID, 1, published(77)))
                .expectNoEvents()
                .expectException(Samples.refused(IncidentErrorCode.PUBLISH_ALREADY_DECIDED));
    }

    @Test
    void aResultForAnUnknownAttemptIsRefused() {
        fixture.given(opened(), replayRequested(1, ROOT_KEY))
                .when(new RecordPublishResultCommand(ID, 2, published(77)))
                .expectNoEvents()
                .expectException(Samples.refused(IncidentErrorCode.UNKNOWN_ATTEMPT));
    }

    @Test
    void publishedNeverClosesTheIncident() {
        fixture.given(opened(), new IncidentAcknowledged(ID, ALICE), replayRequested(1, ROOT_KEY))
                .when(new RecordPublishResultCommand(ID, 1, published(77)))
                .expectEvents(new PublishResultRecorded(ID, 1, ROOT_KEY, published(77)))
                .expectState(incident -> assertThat(incident).extracting("status").hasToString("ACKED"));
    }

    @Test
    void aDecidedAttemptsConsumptionIsWaivedOnceWithItsReason() {
        fixture.given(opened(), replayRequested(1, ROOT_KEY), new PublishResultRecorded(ID, 1, ROOT_KEY, published(77)))
                .when(new WaiveReplayConsumptionCommand(ID, 1, ALICE))
                .expectEvents(new ReplayConsumptionWaived(ID, 1, ALICE));
        fixture.given(opened(), replayRequested(1, ROOT_KEY), new PublishMarkedUnknown(ID, 1, ROOT_KEY, ALICE))
                .when(new WaiveReplayConsumptionCommand(ID, 1, ALICE))
                .expectEvents(new ReplayConsumptionWaived(ID, 1, ALICE));
    }

    @Test
    void aWaiverIsRefusedForARequestedAnUnknownOrAnAlreadyWaivedAttempt() {
        fixture.given(opened(), replayRequested(1, ROOT_KEY))
                .when(new WaiveReplayConsumptionCommand(ID, 1, ALICE))
                .expectNoEvents()
                .expectException(Samples.refused(IncidentErrorCode.ATTEMPT_NOT_DECIDED));
        fixture.given(opened(), replayRequested(1, ROOT_KEY), new PublishResultRecorded(ID, 1, ROOT_KEY, FAILED))
                .when(new WaiveReplayConsumptionCommand(ID, 2, ALICE))
                .expectNoEvents()
                .expectException(Samples.refused(IncidentErrorCode.UNKNOWN_ATTEMPT));
        fixture.given(opened(), replayRequested(1, ROOT_KEY), new PublishResultRecorded(ID, 1, ROOT_KEY, FAILED),
                        new ReplayConsumptionWaived(ID, 1, ALICE))
                .when(new WaiveReplayConsumptionCommand(ID, 1, ALICE))
                .expectNoEvents()
                .expectException(Samples.refused(IncidentErrorCode.ALREADY_WAIVED));
    }

    @Test
    void aRequestedAttemptWhoseOutboxRowIsConfirmedAbsentIsMarkedUnknown() {
        fixture.given(opened(), replayRequested(1, ROOT_KEY))
                .when(new MarkPublishUnknownCommand(ID, 1, true, ALICE))
                .expectEvents(new PublishMarkedUnknown(ID, 1, ROOT_KEY, ALICE));
    }

    @Test
    void theMarkCarriesTheTargetPartitionsEndOffsetReadWhenItWasDecided() {
        fixture.given(opened(), replayRequested(1, ROOT_KEY))
                .when(new MarkPublishUnknownCommand(ID, 1, true, ALICE, 1234L))
                .expectEvents(new PublishMarkedUnknown(ID, 1, ROOT_KEY, ALICE, 1234L));
    }

    @Test
    void publishUnknownIsRefusedWhileTheOutboxRowIsNotConfirmedAbsent() {
        fixture.given(opened(), replayRequested(1, ROOT_KEY))
                .when(new MarkPublishUnknownCommand(ID, 1, false, ALICE))
                .expectNoEvents()
                .expectException(Samples.refused(IncidentErrorCode.OUTBOX_ROW_NOT_CONFIRMED_ABSENT));
    }

    @Test
    void publishUnknownIsRefusedForAnAttemptAlreadyDecided() {
        fixture.given(opened(), replayRequested(1, ROOT_KEY), new PublishResultRecorded(ID, 1, ROOT_KEY, FAILED))
                .when(new MarkPublishUnknownCommand(ID, 1, true, ALICE))
                .expectNoEvents()
                .expectException(Samples.refused(IncidentErrorCode.PUBLISH_NOT_REQUESTED));
    }

    @Test
    void publishUnknownIsOneWay() {
        fixture.given(opened(), replayRequested(1, ROOT_KEY), new PublishMarkedUnknown(ID, 1, ROOT_KEY, ALICE))
                .when(new MarkPublishUnknownCommand(ID, 1, true, ALICE))
                .expectNoEvents()
                .expectException(Samples.refused(IncidentErrorCode.PUBLISH_NOT_REQUESTED));
    }

    @Test
    void publishUnknownIsRefusedForAnUnknownAttempt() {
        fixture.given(opened())
                .when(new MarkPublishUnknownCommand(ID, 1, true, ALICE))
                .expectNoEvents()
                .expectException(Samples.refused(IncidentErrorCode.UNKNOWN_ATTEMPT));
    }

    @Test
    void closingIsAllowedAfterPublishUnknown() {
        fixture.given(opened(), new IncidentAcknowledged(ID, ALICE), replayRequested(1, ROOT_KEY),
                        new PublishMarkedUnknown(ID, 1, ROOT_KEY, ALICE))
                .when(new ResolveIncidentCommand(ID, ALICE))
                .expectEvents(new io.dlqdesk.domain.api.IncidentResolved(ID, ALICE));
    }
}

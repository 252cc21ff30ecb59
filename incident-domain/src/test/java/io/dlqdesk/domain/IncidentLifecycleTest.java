package io.dlqdesk.domain;

import io.dlqdesk.domain.api.IncidentAcknowledged;
import io.dlqdesk.domain.api.IncidentDiscarded;
import io.dlqdesk.domain.api.IncidentReopened;
import io.dlqdesk.domain.api.IncidentResolved;
import io.dlqdesk.domain.api.PublishResultRecorded;
import io.dlqdesk.domain.incident.AcknowledgeIncidentCommand;
import io.dlqdesk.domain.incident.DiscardIncidentCommand;
import io.dlqdesk.domain.incident.IncidentStatus;
import io.dlqdesk.domain.incident.ResolveIncidentCommand;
import io.dlqdesk.domain.replay.PublishResult;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static io.dlqdesk.domain.Samples.ALICE;
import static io.dlqdesk.domain.Samples.ID;
import static io.dlqdesk.domain.Samples.NOW;
import static io.dlqdesk.domain.Samples.ROOT_KEY;
import static io.dlqdesk.domain.Samples.correlated;
import static io.dlqdesk.domain.Samples.opened;
import static io.dlqdesk.domain.Samples.reFailure;
import static io.dlqdesk.domain.Samples.replayRequested;
import static org.assertj.core.api.Assertions.assertThat;

/** Operator transitions: OPEN → ACKED → RESOLVED | DISCARDED, each with who and why. */
class IncidentLifecycleTest {

    private AggregateTestFixture<Incident> fixture;

    @BeforeEach
    void setUp() {
        fixture = new AggregateTestFixture<>(Incident.class);
    }


    @Test
    void anOpenIncidentIsAcknowledgedWithWhoAndWhy() {
        fixture.given(opened())
                .when(new AcknowledgeIncidentCommand(ID, ALICE))
                .expectEvents(new IncidentAcknowledged(ID, ALICE));
    }

    @Test
    void acknowledgingTwiceIsRefused() {
        fixture.given(opened(), new IncidentAcknowledged(ID, ALICE))
                .when(new AcknowledgeIncidentCommand(ID, ALICE))
                .expectNoEvents()
                .expectException(Samples.refused(IncidentErrorCode.NOT_OPEN));
    }

    @Test
    void acknowledgingAClosedIncidentIsRefused() {
        fixture.given(opened(), new IncidentAcknowledged(ID, ALICE), new IncidentResolved(ID, ALICE))
                .when(new AcknowledgeIncidentCommand(ID, ALICE))
                .expectException(Samples.refused(IncidentErrorCode.NOT_OPEN));
    }

    @Test
    void aReopenedIncidentCanBeAcknowledgedAgain() {
        var refailure = reFailure(77);
        fixture.given(opened(), new IncidentAcknowledged(ID, ALICE), replayRequested(1, ROOT_KEY),
                        new PublishResultRecorded(ID, 1, ROOT_KEY, Samples.published(77)), new IncidentResolved(ID, ALICE),
                        correlated(refailure, 1), new IncidentReopened(ID, refailure.failureKey(), IncidentStatus.RESOLVED, NOW))
                .when(new AcknowledgeIncidentCommand(ID, ALICE))
                .expectEvents(new IncidentAcknowledged(ID, ALICE));
    }

    @Test
    void anAcknowledgedIncidentIsResolvedWithWhoAndWhy() {
        fixture.given(opened(), new IncidentAcknowledged(ID, ALICE))
                .when(new ResolveIncidentCommand(ID, ALICE))
                .expectEvents(new IncidentResolved(ID, ALICE))
                .expectState(incident -> assertThat(incident).extracting("status").isEqualTo(IncidentStatus.RESOLVED));
    }

    @Test
    void anAcknowledgedIncidentIsDiscardedWithWhoAndWhy() {
        fixture.given(opened(), new IncidentAcknowledged(ID, ALICE))
                .when(new DiscardIncidentCommand(ID, ALICE))
                .expectEvents(new IncidentDiscarded(ID, ALICE))
                .expectState(incident -> assertThat(incident).extracting("status").isEqualTo(IncidentStatus.DISCARDED));
    }

    @Test
    void resolvingAnIncidentNobodyAcknowledgedIsRefused() {
        fixture.given(opened())
                .when(new ResolveIncidentCommand(ID, ALICE))
                .expectNoEvents()
                .expectException(Samples.refused(IncidentErrorCode.NOT_ACKNOWLEDGED));
    }

    @Test
    void discardingAnIncidentNobodyAcknowledgedIsRefused() {
        fixture.given(opened())
                .when(new DiscardIncidentCommand(ID, ALICE))
                .expectNoEvents()
                .expectException(Samples.refused(IncidentErrorCode.NOT_ACKNOWLEDGED));
    }

    @Test
    void resolvingTwiceIsRefused() {
        fixture.given(opened(), new IncidentAcknowledged(ID, ALICE), new IncidentResolved(ID, ALICE))
                .when(new ResolveIncidentCommand(ID, ALICE))
                .expectException(Samples.refused(IncidentErrorCode.NOT_ACKNOWLEDGED));
    }

    @Test
    void closingIsRefusedWhileAReplayIsRequested() {
        fixture.given(opened(), new IncidentAcknowledged(ID, ALICE), replayRequested(1, ROOT_KEY))
                .when(new ResolveIncidentCommand(ID, ALICE))
                .expectNoEvents()
                .expectException(Samples.refused(IncidentErrorCode.REPLAY_IN_FLIGHT));
    }

    @Test
    void discardingIsRefusedWhileAReplayIsRequested() {
        fixture.given(opened(), new IncidentAcknowledged(ID, ALICE), replayRequested(1, ROOT_KEY))
                .when(new DiscardIncidentCommand(ID, ALICE))
                .expectException(Samples.refused(IncidentErrorCode.REPLAY_IN_FLIGHT));
    }

    @Test
    void closingIsAllowedOnceThePublishResultIsKnown() {
        fixture.given(opened(), new IncidentAcknowledged(ID, ALICE), replayRequested(1, ROOT_KEY),
                        new PublishResultRecorded(ID, 1, ROOT_KEY, PublishResult.failed("timeout", NOW)))
                .when(new DiscardIncidentCommand(ID, ALICE))
                .expectEvents(new IncidentDiscarded(ID, ALICE));
    }
}

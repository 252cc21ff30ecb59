package io.dlqdesk.domain;

import io.dlqdesk.domain.api.IncidentAcknowledged;
import io.dlqdesk.domain.api.IncidentDiscarded;
import io.dlqdesk.domain.api.PublishResultRecorded;
import io.dlqdesk.domain.api.ReplayEditApproved;
import io.dlqdesk.domain.api.ReplayEditProposed;
import io.dlqdesk.domain.api.ReplayRejected;
import io.dlqdesk.domain.api.ReplayRequested;
import io.dlqdesk.domain.api.RetryFailureCorrelated;
import io.dlqdesk.domain.correlation.CorrelationMismatch;
import io.dlqdesk.domain.edit.AppliedEdit;
import io.dlqdesk.domain.edit.ApproveReplayEditCommand;
import io.dlqdesk.domain.edit.EditDiff;
import io.dlqdesk.domain.edit.ProposeReplayEditCommand;
import io.dlqdesk.domain.incident.OperatorAction;
import io.dlqdesk.domain.record.EventId;
import io.dlqdesk.domain.record.FailedRecord;
import io.dlqdesk.domain.record.PayloadHash;
import io.dlqdesk.domain.replay.KeyFreshness;
import io.dlqdesk.domain.replay.ReplayOutcome;
import io.dlqdesk.domain.replay.ReplayRefusal;
import io.dlqdesk.domain.replay.RequestReplayCommand;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static io.dlqdesk.domain.Samples.ALICE;
import static io.dlqdesk.domain.Samples.DEADLINE;
import static io.dlqdesk.domain.Samples.EVENT_ID;
import static io.dlqdesk.domain.Samples.ID;
import static io.dlqdesk.domain.Samples.LEDGER;
import static io.dlqdesk.domain.Samples.NOW;
import static io.dlqdesk.domain.Samples.POLICY;
import static io.dlqdesk.domain.Samples.ROOT;
import static io.dlqdesk.domain.Samples.ROOT_KEY;
import static io.dlqdesk.domain.Samples.correlate;
import static io.dlqdesk.domain.Samples.notCorrelated;
import static io.dlqdesk.domain.Samples.opened;
import static io.dlqdesk.domain.Samples.published;
import static io.dlqdesk.domain.Samples.refused;
import static io.dlqdesk.domain.Samples.replayRequested;
import static io.dlqdesk.domain.Samples.sourceAsRecorded;

/** Edit-and-replay: proposed by one person, approved by another, replayed, and its re-failure correlated by the edited hash. */
class IncidentEditTest {

    private static final PayloadHash EDITED_HASH = PayloadHash.of("{\"order\":7,\"qty\":1}".getBytes(StandardCharsets.UTF_8));
    private static final PayloadHash CONTENT_HASH = PayloadHash.of("content".getBytes(StandardCharsets.UTF_8));
    private static final EditDiff DIFF = new EditDiff(EditDiff.Kind.JSON, List.of(new EditDiff.Change("/qty", null, "1")), List.of());
    private static final OperatorAction EDDIE = new OperatorAction("eddie", "qty missing; the producer's bug, fixed in 2.1", NOW);
    private static final OperatorAction BOB = new OperatorAction("bob", "checked the order in the shop", NOW.plusSeconds(30));
    private static final AppliedEdit APPLIED = new AppliedEdit(1, EDITED_HASH, CONTENT_HASH);

    private AggregateTestFixture<Incident> fixture;

    @BeforeEach
    void setUp() {
        fixture = new AggregateTestFixture<>(Incident.class);
    }

    private static ProposeReplayEditCommand propose(EditDiff diff, EventId eventId) {
        return new ProposeReplayEditCommand(ID, EDITED_HASH, CONTENT_HASH, eventId, 22, diff, EDDIE);
    }

    private static ReplayEditProposed proposed(int edit) {
        return new ReplayEditProposed(ID, edit, EDITED_HASH, CONTENT_HASH, 22, DIFF, EDDIE);
    }

    private static RequestReplayCommand replayOfEdit(Integer edit) {
        return new RequestReplayCommand(ID, sourceAsRecorded(), POLICY, true, LEDGER, ALICE, KeyFreshness.notChecked("not configured"), false, edit);
    }

    @Test
    void anEditIsProposedWithItsDiffAndHashesAndGetsItsNumber() {
        fixture.given(opened())
                .when(propose(DIFF, EVENT_ID))
                .expectEvents(proposed(1))
                .expectResultMessagePayload(1);
        fixture.given(opened(), proposed(1))
                .when(propose(DIFF, EVENT_ID))
                .expectEvents(proposed(2))
                .expectResultMessagePayload(2);
    }

    @Test
    void anEditThatChangesNothingOrTheEventIdIsRefusedAndOneChangingOnlyHeadersIsTaken() {
        fixture.given(opened())
                .when(propose(new EditDiff(EditDiff.Kind.BYTES, List.of(), List.of()), EVENT_ID))
                .expectNoEvents()
                .expectException(refused(IncidentErrorCode.EDIT_CHANGES_NOTHING));
        fixture.given(opened())
                .when(propose(DIFF, new EventId("evt-9999")))
                .expectNoEvents()
                .expectException(refused(IncidentErrorCode.EDIT_CHANGES_EVENT_ID));
        EditDiff headersOnly = new EditDiff(EditDiff.Kind.BYTES, List.of(), List.of(new EditDiff.Change("tenant[0]", "eu", "de")));
        fixture.given(opened())
                .when(propose(headersOnly, EVENT_ID))
                .expectEvents(new ReplayEditProposed(ID, 1, EDITED_HASH, CONTENT_HASH, 22, headersOnly, EDDIE));
    }

    @Test
    void aClosedIncidentOrOneWithTheMostEditsTakesNoMore() {
        fixture.given(opened(), new IncidentAcknowledged(ID, ALICE), new IncidentDiscarded(ID, ALICE))
                .when(propose(DIFF, EVENT_ID))
                .expectException(refused(IncidentErrorCode.INCIDENT_CLOSED));
        List<Object> full = new ArrayList<>(List.of(opened()));
        for (int i = 1; i <= Incident.MAX_EDITS; i++) {
            full.add(proposed(i));
        }
        fixture.given(full)
                .when(propose(DIFF, EVENT_ID))
                .expectException(refused(IncidentErrorCode.TOO_MANY_EDITS));
        fixture.given(full.subList(0, Incident.MAX_EDITS))
                .when(propose(DIFF, EVENT_ID))
                .expectEvents(proposed(Incident.MAX_EDITS));
    }

    @Test
    void aSecondPersonApprovesTheProposerNever() {
        fixture.given(opened(), proposed(1))
                .when(new ApproveReplayEditCommand(ID, 1, BOB))
                .expectEvents(new ReplayEditApproved(ID, 1, BOB));
        fixture.given(opened(), proposed(1))
                .when(new ApproveReplayEditCommand(ID, 1, new OperatorAction("eddie", "looks right to me", NOW)))
                .expectNoEvents()
                .expectException(refused(IncidentErrorCode.APPROVER_IS_PROPOSER));
        fixture.given(opened(), proposed(1), new ReplayEditApproved(ID, 1, BOB))
                .when(new ApproveReplayEditCommand(ID, 1, new OperatorAction("carol", "also fine", NOW)))
                .expectException(refused(IncidentErrorCode.EDIT_ALREADY_APPROVED));
        fixture.given(opened(), proposed(1))
                .when(new ApproveReplayEditCommand(ID, 2, BOB))
                .expectException(refused(IncidentErrorCode.UNKNOWN_EDIT));
    }

    @Test
    void aReplayOfAnEditNobodyApprovedIsRefusedNamingWhyAndOfAnApprovedOneCarriesTheEdit() {
        fixture.given(opened(), proposed(1))
                .when(replayOfEdit(1))
                .expectEvents(new ReplayRejected(ID, List.of(ReplayRefusal.EDIT_NOT_APPROVED), ALICE))
                .expectResultMessagePayload(ReplayOutcome.rejected(List.of(ReplayRefusal.EDIT_NOT_APPROVED)));
        fixture.given(opened(), proposed(1))
                .when(replayOfEdit(2))
                .expectEvents(new ReplayRejected(ID, List.of(ReplayRefusal.EDIT_UNKNOWN), ALICE));
        fixture.given(opened(), proposed(1), new ReplayEditApproved(ID, 1, BOB))
                .when(replayOfEdit(1))
                .expectEvents(ReplayRequested.of(ID, 1, ROOT_KEY, ROOT, DEADLINE, LEDGER, ALICE, null, false, APPLIED))
                .expectResultMessagePayload(ReplayOutcome.requested(1));
        // an unapproved edit does not hold back a replay of the record as it is
        fixture.given(opened(), proposed(1))
                .when(replayOfEdit(null))
                .expectEvents(replayRequested(1, ROOT_KEY));
    }

    @Test
    void theReFailureOfAnEditedReplayCarriesTheEditedHashAndReopensTheSameIncidentTheSourcesHashDoesNot() {
        ReplayRequested editedReplay = ReplayRequested.of(ID, 1, ROOT_KEY, ROOT, DEADLINE, LEDGER, ALICE, null, false, APPLIED);
        List<Object> replayed = List.of(opened(), proposed(1), new ReplayEditApproved(ID, 1, BOB), editedReplay,
                new PublishResultRecorded(ID, 1, ROOT_KEY, published(77)));
        FailedRecord editedFailure = failureOf(EDITED_HASH);
        fixture.given(replayed)
                .when(correlate(editedFailure, 1))
                .expectEvents(new RetryFailureCorrelated(ID, editedFailure, 1, NOW.plusSeconds(60), DEADLINE, Samples.headers(1)));
        FailedRecord sourceValue = failureOf(ROOT.valueHash());
        fixture.given(replayed)
                .when(correlate(sourceValue, 1))
                .expectNoEvents()
                .expectException(notCorrelated(sourceValue.failureKey(), CorrelationMismatch.VALUE_HASH_MISMATCH));
    }

    /** The re-failure of attempt 1, put at offset 77, carrying a value with {@code hash}. */
    private static FailedRecord failureOf(PayloadHash hash) {
        FailedRecord refailure = Samples.reFailure(77);
        return new FailedRecord(refailure.failureKey(), refailure.dlqLocation(), refailure.key(), refailure.eventId(),
                refailure.originalTimestamp(), hash, refailure.exception());
    }
}

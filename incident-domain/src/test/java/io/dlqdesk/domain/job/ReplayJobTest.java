package io.dlqdesk.domain.job;

import io.dlqdesk.domain.api.JobReplayClaimed;
import io.dlqdesk.domain.api.JobReplayDecided;
import io.dlqdesk.domain.api.JobReplayRefailed;
import io.dlqdesk.domain.api.JobReplayRefused;
import io.dlqdesk.domain.api.JobReplayRequested;
import io.dlqdesk.domain.api.ReplayJobApproved;
import io.dlqdesk.domain.api.ReplayJobCancelled;
import io.dlqdesk.domain.api.ReplayJobCompleted;
import io.dlqdesk.domain.api.ReplayJobCreated;
import io.dlqdesk.domain.api.ReplayJobManifestExtended;
import io.dlqdesk.domain.api.ReplayJobPaused;
import io.dlqdesk.domain.api.ReplayJobResumed;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.OperatorAction;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.domain.replay.PublishStatus;
import io.dlqdesk.domain.replay.ReplayOutcome;
import io.dlqdesk.domain.replay.ReplayRefusal;
import org.axonframework.messaging.Message;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.hamcrest.Matcher;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.axonframework.test.matchers.Matchers.andNoMore;
import static org.axonframework.test.matchers.Matchers.exactSequenceOf;
import static org.axonframework.test.matchers.Matchers.messageWithPayload;
import static org.axonframework.test.matchers.Matchers.predicate;
import static org.hamcrest.Matchers.equalTo;

class ReplayJobTest {

    private static final ReplayJobId JOB = new ReplayJobId("job-1");
    private static final Instant NOW = Instant.parse("2026-12-01T06:00:00Z");
    private static final OperatorAction ALICE = new OperatorAction("alice", "fix deployed", NOW);
    private static final IncidentId A = incident(1);
    private static final IncidentId B = incident(2);
    private static final IncidentId C = incident(3);

    private AggregateTestFixture<ReplayJob> fixture;

    @BeforeEach
    void setUp() {
        fixture = new AggregateTestFixture<>(ReplayJob.class);
    }

    private static IncidentId incident(long offset) {
        return IncidentId.of(new FailureKey("orders", 0, offset, "billing"));
    }

    private static ReplayJobCreated created(ReplayJobLimits limits, IncidentId... manifest) {
        return new ReplayJobCreated(JOB, "topic=orders", List.of(manifest), limits, ALICE);
    }

    private static ReplayJobCreated created(IncidentId... manifest) {
        return created(ReplayJobLimits.defaults(), manifest);
    }

    private static JobReplayClaimed claimed(IncidentId incident) {
        return new JobReplayClaimed(JOB, incident, NOW);
    }

    private static ReplayJobPaused pausedBy(ReplayJobPauseReason reason) {
        return new ReplayJobPaused(JOB, reason, ALICE);
    }

    /** The job's own pause for {@code reason}, whatever words it gives. */
    private static Matcher<List<Message<?>>> thenPausedItself(Object first, ReplayJobPauseReason reason) {
        Matcher<Object> pausedItself = predicate(payload -> payload instanceof ReplayJobPaused paused && paused.reason() == reason
                && paused.by().principal().equals(ReplayJob.SELF));
        return exactSequenceOf(messageWithPayload(equalTo(first)), messageWithPayload(pausedItself), andNoMore());
    }

    private static Matcher<Object> refused(ReplayJobErrorCode code) {
        return predicate(e -> e instanceof ReplayJobCommandRefusedException refused && refused.code() == code && refused.jobId().equals(JOB));
    }

    @Test
    void theManifestIsFixedAtCreationWithoutDuplicatesInItsOrder() {
        fixture.givenNoPriorActivity()
                .when(new CreateReplayJobCommand(JOB, "topic=orders", List.of(B, A, B, C), ReplayJobLimits.defaults(), ALICE))
                .expectEvents(new ReplayJobCreated(JOB, "topic=orders", List.of(B, A, C), ReplayJobLimits.defaults(), ALICE));
    }

    @Test
    void aLargeManifestIsRecordedInPartsThatEachFitOneRecordAndTheJobKnowsEveryIncident() {
        List<IncidentId> manifest = IntStream.range(0, 2_500).mapToObj(ReplayJobTest::incident).toList();
        fixture.givenNoPriorActivity()
                .when(new CreateReplayJobCommand(JOB, "explicit list", manifest, ReplayJobLimits.defaults(), ALICE))
                .expectEvents(new ReplayJobCreated(JOB, "explicit list", manifest.subList(0, 1_000), ReplayJobLimits.defaults(), ALICE, 2_500),
                        new ReplayJobManifestExtended(JOB, 1_000, manifest.subList(1_000, 2_000)),
                        new ReplayJobManifestExtended(JOB, 2_000, manifest.subList(2_000, 2_500)));
        List<Object> created = List.of(new ReplayJobCreated(JOB, "explicit list", manifest.subList(0, 1_000), ReplayJobLimits.defaults(), ALICE,
                2_500), new ReplayJobManifestExtended(JOB, 1_000, manifest.subList(1_000, 2_000)),
                new ReplayJobManifestExtended(JOB, 2_000, manifest.subList(2_000, 2_500)));
        for (IncidentId incident : List.of(manifest.get(0), manifest.get(1_499), manifest.get(2_499))) {
            fixture.given(created).when(new ClaimJobReplayCommand(JOB, incident, NOW)).expectEvents(claimed(incident));
        }
        fixture.given(created).when(new ClaimJobReplayCommand(JOB, incident(2_500), NOW))
                .expectNoEvents()
                .expectException(refused(ReplayJobErrorCode.NOT_IN_MANIFEST));
    }

    @Test
    void aJobCompletesWhenTheLastIncidentOfItsWholeManifestIsAnswered() {
        List<IncidentId> manifest = IntStream.range(0, 1_001).mapToObj(ReplayJobTest::incident).toList();
        List<Object> history = new ArrayList<>(List.of(new ReplayJobCreated(JOB, "explicit list", manifest.subList(0, 1_000),
                ReplayJobLimits.defaults(), ALICE, 1_001), new ReplayJobManifestExtended(JOB, 1_000, manifest.subList(1_000, 1_001))));
        for (IncidentId incident : manifest.subList(0, 1_000)) {
            history.add(claimed(incident));
            history.add(new JobReplayRequested(JOB, incident, 1));
        }
        history.add(claimed(manifest.get(1_000)));
        fixture.given(history)
                .when(new RecordJobReplayCommand(JOB, manifest.get(1_000), ReplayOutcome.requested(1)))
                .expectEvents(new JobReplayRequested(JOB, manifest.get(1_000), 1), new ReplayJobCompleted(JOB));
        history.remove(history.size() - 1);
        history.remove(history.size() - 1);
        history.remove(history.size() - 1);
        history.add(claimed(manifest.get(999)));
        fixture.given(history)
                .when(new RecordJobReplayCommand(JOB, manifest.get(999), ReplayOutcome.requested(1)))
                .expectEvents(new JobReplayRequested(JOB, manifest.get(999), 1));
    }

    @Test
    void anEmptySelectionIsRefused() {
        fixture.givenNoPriorActivity()
                .when(new CreateReplayJobCommand(JOB, "topic=none", List.of(), ReplayJobLimits.defaults(), ALICE))
                .expectNoEvents()
                .expectException(refused(ReplayJobErrorCode.EMPTY_SELECTION));
    }

    @Test
    void aRunningJobLetsAnIncidentOfItsManifestBeClaimedOnce() {
        fixture.given(created(A, B))
                .when(new ClaimJobReplayCommand(JOB, A, NOW))
                .expectEvents(claimed(A));
        fixture.given(created(A, B), claimed(A))
                .when(new ClaimJobReplayCommand(JOB, A, NOW))
                .expectNoEvents()
                .expectException(refused(ReplayJobErrorCode.ALREADY_CLAIMED));
    }

    @Test
    void aClaimNeverAnsweredIsTakenAgainOnlyWhileRunningAndOnlyUntilItsAnswerIsRecorded() {
        fixture.given(created(A, B), claimed(A))
                .when(new ClaimJobReplayCommand(JOB, A, NOW, true))
                .expectEvents(claimed(A));
        fixture.given(created(A, B), claimed(A), new ReplayJobCancelled(JOB, ALICE))
                .when(new ClaimJobReplayCommand(JOB, A, NOW, true))
                .expectNoEvents()
                .expectException(refused(ReplayJobErrorCode.NOT_RUNNING));
        fixture.given(created(A, B), claimed(A), new JobReplayRequested(JOB, A, 1))
                .when(new ClaimJobReplayCommand(JOB, A, NOW, true))
                .expectNoEvents()
                .expectException(refused(ReplayJobErrorCode.ALREADY_CLAIMED));
    }

    @Test
    void aClaimAgainCountsOnceForTheCanary() {
        ReplayJobLimits canaryOfTwo = new ReplayJobLimits(10, 50, 2, null);
        fixture.given(created(canaryOfTwo, A, B, C), claimed(A))
                .when(new ClaimJobReplayCommand(JOB, A, NOW, true))
                .expectEvents(claimed(A));
    }

    @Test
    void anIncidentOutsideTheManifestIsNeverClaimed() {
        fixture.given(created(A, B))
                .when(new ClaimJobReplayCommand(JOB, C, NOW))
                .expectNoEvents()
                .expectException(refused(ReplayJobErrorCode.NOT_IN_MANIFEST));
    }

    @Test
    void nothingIsClaimedAfterAPauseOrACancelIsRecordedAndAgainAfterAResume() {
        fixture.given(created(A, B), pausedBy(ReplayJobPauseReason.OPERATOR))
                .when(new ClaimJobReplayCommand(JOB, A, NOW))
                .expectNoEvents()
                .expectException(refused(ReplayJobErrorCode.NOT_RUNNING));
        fixture.given(created(A, B), new ReplayJobCancelled(JOB, ALICE))
                .when(new ClaimJobReplayCommand(JOB, A, NOW))
                .expectNoEvents()
                .expectException(refused(ReplayJobErrorCode.NOT_RUNNING));
        fixture.given(created(A, B), pausedBy(ReplayJobPauseReason.OPERATOR), new ReplayJobResumed(JOB, ALICE))
                .when(new ClaimJobReplayCommand(JOB, A, NOW))
                .expectEvents(claimed(A));
    }

    @Test
    void eachClaimedIncidentsAnswerIsRecordedOnceAndTheLastCompletesTheJob() {
        fixture.given(created(A, B), claimed(A))
                .when(new RecordJobReplayCommand(JOB, A, ReplayOutcome.requested(2)))
                .expectResultMessagePayload(JobRecording.RECORDED)
                .expectEvents(new JobReplayRequested(JOB, A, 2));
        fixture.given(created(A, B), claimed(A), new JobReplayRequested(JOB, A, 2))
                .when(new RecordJobReplayCommand(JOB, A, ReplayOutcome.requested(2)))
                .expectResultMessagePayload(JobRecording.ALREADY_RECORDED)
                .expectNoEvents();
        List<ReplayRefusal> refusals = List.of(ReplayRefusal.INCIDENT_CLOSED, ReplayRefusal.AFTER_DEADLINE);
        fixture.given(created(A, B), claimed(A), new JobReplayRequested(JOB, A, 2), claimed(B))
                .when(new RecordJobReplayCommand(JOB, B, ReplayOutcome.rejected(refusals)))
                .expectEvents(new JobReplayRefused(JOB, B, refusals), new ReplayJobCompleted(JOB));
    }

    @Test
    void anAnswerForAnIncidentNotClaimedIsRefused() {
        fixture.given(created(A, B))
                .when(new RecordJobReplayCommand(JOB, A, ReplayOutcome.requested(1)))
                .expectNoEvents()
                .expectException(refused(ReplayJobErrorCode.NOT_CLAIMED));
    }

    @Test
    void aCancelledJobIsNotCompletedByItsLastAnswer() {
        fixture.given(created(A), claimed(A), new ReplayJobCancelled(JOB, ALICE))
                .when(new RecordJobReplayCommand(JOB, A, ReplayOutcome.requested(1)))
                .expectEvents(new JobReplayRequested(JOB, A, 1));
    }

    @Test
    void theCanaryPausesTheJobOnceItsIncidentsAreTakenAndOnlyOnce() {
        ReplayJobLimits canaryOfTwo = new ReplayJobLimits(10, 50, 2, null);
        fixture.given(created(canaryOfTwo, A, B, C), claimed(A))
                .when(new ClaimJobReplayCommand(JOB, B, NOW))
                .expectEventsMatching(thenPausedItself(claimed(B), ReplayJobPauseReason.CANARY));
        fixture.given(created(canaryOfTwo, A, B, C), claimed(A))
                .when(new ClaimJobReplayCommand(JOB, B, NOW))
                .expectState(job -> assertThat(job).extracting("status").hasToString("PAUSED"));
        fixture.given(created(canaryOfTwo, A, B, C), claimed(A), claimed(B), new ReplayJobPaused(JOB, ReplayJobPauseReason.CANARY, ALICE),
                        new ReplayJobResumed(JOB, ALICE))
                .when(new ClaimJobReplayCommand(JOB, C, NOW))
                .expectEvents(claimed(C));
    }

    @Test
    void beforeItsCanaryIsReachedTheJobRuns() {
        fixture.given(created(new ReplayJobLimits(10, 50, 2, null), A, B, C))
                .when(new ClaimJobReplayCommand(JOB, A, NOW))
                .expectEvents(claimed(A));
    }

    @Test
    void tooManyPublishedReplaysFailingAgainPauseTheJobFromTenPublishedOn() {
        ReplayJobLimits twentyPercent = new ReplayJobLimits(10, 50, null, 0.2);
        List<IncidentId> ten = IntStream.rangeClosed(1, 10).mapToObj(ReplayJobTest::incident).toList();
        List<IncidentId> manifest = new ArrayList<>(ten);
        manifest.add(incident(11)); // not asked yet: the job still has work left
        List<Object> tenPublished = new ArrayList<>();
        tenPublished.add(created(twentyPercent, manifest.toArray(IncidentId[]::new)));
        for (IncidentId incident : ten) {
            tenPublished.addAll(List.of(claimed(incident), new JobReplayRequested(JOB, incident, 1),
                    new JobReplayDecided(JOB, incident, 1, PublishStatus.PUBLISHED)));
        }
        tenPublished.add(new JobReplayRefailed(JOB, ten.get(0), 1));
        // 2 of 10 is not more than 20%: it runs on
        fixture.given(tenPublished)
                .when(new RecordJobRefailureCommand(JOB, ten.get(1), 1, NOW))
                .expectEvents(new JobReplayRefailed(JOB, ten.get(1), 1));
        // 3 of 10 is: it pauses itself
        List<Object> twoRefailed = new ArrayList<>(tenPublished);
        twoRefailed.add(new JobReplayRefailed(JOB, ten.get(1), 1));
        fixture.given(twoRefailed)
                .when(new RecordJobRefailureCommand(JOB, ten.get(2), 1, NOW))
                .expectEventsMatching(thenPausedItself(new JobReplayRefailed(JOB, ten.get(2), 1), ReplayJobPauseReason.REFAILURE_RATE));
        // a job that asks nothing more (cancelled) is not paused
        List<Object> cancelled = new ArrayList<>(twoRefailed);
        cancelled.add(new ReplayJobCancelled(JOB, ALICE));
        fixture.given(cancelled)
                .when(new RecordJobRefailureCommand(JOB, ten.get(2), 1, NOW))
                .expectEvents(new JobReplayRefailed(JOB, ten.get(2), 1));
    }

    @Test
    void belowTenPublishedNoRateIsJudged() {
        ReplayJobLimits twentyPercent = new ReplayJobLimits(10, 50, null, 0.2);
        fixture.given(created(twentyPercent, A, B), claimed(A), new JobReplayRequested(JOB, A, 1),
                        new JobReplayDecided(JOB, A, 1, PublishStatus.PUBLISHED))
                .when(new RecordJobRefailureCommand(JOB, A, 1, NOW))
                .expectEvents(new JobReplayRefailed(JOB, A, 1));
    }

    @Test
    void aResultOrReFailureCountsOnceAndOnlyForTheJobsOwnAttempt() {
        fixture.given(created(A, B), claimed(A), new JobReplayRequested(JOB, A, 2))
                .when(new RecordJobPublishResultCommand(JOB, A, 2, PublishStatus.PUBLISHED, NOW))
                .expectResultMessagePayload(JobRecording.RECORDED)
                .expectEvents(new JobReplayDecided(JOB, A, 2, PublishStatus.PUBLISHED));
        fixture.given(created(A, B), claimed(A), new JobReplayRequested(JOB, A, 2), new JobReplayDecided(JOB, A, 2, PublishStatus.PUBLISHED))
                .when(new RecordJobPublishResultCommand(JOB, A, 2, PublishStatus.PUBLISHED, NOW))
                .expectResultMessagePayload(JobRecording.ALREADY_RECORDED)
                .expectNoEvents();
        fixture.given(created(A, B), claimed(A), new JobReplayRequested(JOB, A, 2), new JobReplayRefailed(JOB, A, 2))
                .when(new RecordJobRefailureCommand(JOB, A, 2, NOW))
                .expectResultMessagePayload(JobRecording.ALREADY_RECORDED)
                .expectNoEvents();
        fixture.given(created(A, B), claimed(A), new JobReplayRequested(JOB, A, 2))
                .when(new RecordJobRefailureCommand(JOB, A, 1, NOW))
                .expectNoEvents()
                .expectException(refused(ReplayJobErrorCode.NOT_A_JOB_ATTEMPT));
    }

    @Test
    void pauseResumeAndCancelFollowTheStateMachine() {
        fixture.given(created(A)).when(new PauseReplayJobCommand(JOB, ALICE)).expectEvents(pausedBy(ReplayJobPauseReason.OPERATOR));
        fixture.given(created(A), pausedBy(ReplayJobPauseReason.OPERATOR)).when(new PauseReplayJobCommand(JOB, ALICE))
                .expectNoEvents().expectException(refused(ReplayJobErrorCode.NOT_RUNNING));
        fixture.given(created(A), pausedBy(ReplayJobPauseReason.OPERATOR)).when(new ResumeReplayJobCommand(JOB, ALICE))
                .expectEvents(new ReplayJobResumed(JOB, ALICE));
        fixture.given(created(A)).when(new ResumeReplayJobCommand(JOB, ALICE))
                .expectNoEvents().expectException(refused(ReplayJobErrorCode.NOT_PAUSED));
        fixture.given(created(A), pausedBy(ReplayJobPauseReason.CANARY)).when(new CancelReplayJobCommand(JOB, ALICE))
                .expectEvents(new ReplayJobCancelled(JOB, ALICE));
        fixture.given(created(A), claimed(A), new JobReplayRequested(JOB, A, 1), new ReplayJobCompleted(JOB))
                .when(new CancelReplayJobCommand(JOB, ALICE))
                .expectNoEvents().expectException(refused(ReplayJobErrorCode.ALREADY_ENDED));
    }

    @Test
    void limitsOutOfRangeAreRefused() {
        assertThatThrownBy(() -> new ReplayJobLimits(0, 50, null, null)).hasMessageContaining("ratePerSecond");
        assertThatThrownBy(() -> new ReplayJobLimits(501, 50, null, null)).hasMessageContaining("ratePerSecond");
        assertThatThrownBy(() -> new ReplayJobLimits(10, 0, null, null)).hasMessageContaining("maxInFlight");
        assertThatThrownBy(() -> new ReplayJobLimits(10, 50, 0, null)).hasMessageContaining("canary");
        assertThatThrownBy(() -> new ReplayJobLimits(10, 50, null, 0.0)).hasMessageContaining("maxRefailureRate");
        assertThatThrownBy(() -> new ReplayJobLimits(10, 50, null, 1.5)).hasMessageContaining("maxRefailureRate");
        assertThat(new ReplayJobLimits(500, 1000, 1, 1.0).ratePerSecond()).isEqualTo(500);
    }

    private static final OperatorAction BOB = new OperatorAction("bob", "looked at the selection: all from the 14:02 outage", NOW);

    private static ReplayJobCreated awaitingApproval(IncidentId... manifest) {
        return new ReplayJobCreated(JOB, "topic=orders", List.of(manifest), ReplayJobLimits.defaults(), ALICE, manifest.length, true);
    }

    @Test
    void aJobThatNeedsApprovalIsCreatedAwaitingIt() {
        fixture.givenNoPriorActivity()
                .when(new CreateReplayJobCommand(JOB, "topic=orders", List.of(A, B), ReplayJobLimits.defaults(), ALICE, true))
                .expectEvents(awaitingApproval(A, B));
    }

    @Test
    void nothingIsClaimedWhileTheJobAwaitsApproval() {
        fixture.given(awaitingApproval(A, B))
                .when(new ClaimJobReplayCommand(JOB, A, NOW))
                .expectException(refused(ReplayJobErrorCode.NOT_RUNNING));
    }

    @Test
    void aSecondPersonApprovesAndTheJobRuns() {
        fixture.given(awaitingApproval(A, B))
                .when(new ApproveReplayJobCommand(JOB, BOB))
                .expectEvents(new ReplayJobApproved(JOB, BOB));
        fixture.given(awaitingApproval(A, B), new ReplayJobApproved(JOB, BOB))
                .when(new ClaimJobReplayCommand(JOB, A, NOW))
                .expectEvents(claimed(A));
    }

    @Test
    void theCreatorCannotApproveTheirOwnJob() {
        fixture.given(awaitingApproval(A, B))
                .when(new ApproveReplayJobCommand(JOB, new OperatorAction("alice", "I checked it myself", NOW)))
                .expectException(refused(ReplayJobErrorCode.APPROVER_IS_CREATOR));
    }

    @Test
    void onlyAJobAwaitingApprovalIsApproved() {
        fixture.given(created(A, B))
                .when(new ApproveReplayJobCommand(JOB, BOB))
                .expectException(refused(ReplayJobErrorCode.NOT_AWAITING_APPROVAL));
        fixture.given(awaitingApproval(A, B), new ReplayJobApproved(JOB, BOB))
                .when(new ApproveReplayJobCommand(JOB, new OperatorAction("carol", "again", NOW)))
                .expectException(refused(ReplayJobErrorCode.NOT_AWAITING_APPROVAL));
    }

    @Test
    void aJobAwaitingApprovalCanBeCancelled() {
        fixture.given(awaitingApproval(A, B))
                .when(new CancelReplayJobCommand(JOB, BOB))
                .expectEvents(new ReplayJobCancelled(JOB, BOB));
    }
}

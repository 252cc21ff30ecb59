package io.dlqdesk.replay.outbox;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.domain.record.PayloadHash;
import io.dlqdesk.domain.record.RecordKey;
import io.dlqdesk.domain.record.RecordLocation;
import io.dlqdesk.domain.replay.PublishResult;
import io.dlqdesk.replay.outbox.ReplayPublisher.PublishFailedException;
import io.dlqdesk.replay.outbox.ReplayPublisher.Sent;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

class RowDeciderTest {

    private static final FailureKey ROOT = new FailureKey("orders", 4, 17L, "billing");
    private static final IncidentId ID = IncidentId.of(ROOT);
    private static final RecordLocation LANDED = new RecordLocation("orders", 4, 230L);
    private static final Instant DECIDED_AT = Instant.parse("2026-11-30T12:00:00Z");
    private static final Sent TIMED_OUT = new Sent.Failed(new PublishFailedException("TimeoutException: no ack in 30 s", null));

    /** Five tries, one second doubling up to five. */
    private final RowDecider decide = new RowDecider(5, Duration.ofSeconds(1), Duration.ofSeconds(5));

    @Test
    void anAcknowledgedSendIsSentWhereItLanded() {
        RowDecision decision = decide.sent(row(0), new Sent.Acknowledged(LANDED));

        assertThat(decision).isEqualTo(new RowDecision.Sent(row(0), LANDED));
        assertThat(decision.result(DECIDED_AT)).contains(PublishResult.published(LANDED, DECIDED_AT));
    }

    @Test
    void aFailedSendWithTriesLeftIsDeferredByTheBackoffAndDecidesNothingYet() {
        RowDecision decision = decide.sent(row(0), TIMED_OUT);

        assertThat(decision).isEqualTo(new RowDecision.Deferred(row(0), "publish failed: TimeoutException: no ack in 30 s",
                Duration.ofSeconds(1)));
        assertThat(((RowDecision.Deferred) decision).tryNumber()).isEqualTo(1);
        assertThat(decision.result(DECIDED_AT)).isEmpty();
    }

    @Test
    void theBackoffDoublesWithEachFailedTryUpToItsMaximum() {
        RowDecider manyTries = new RowDecider(10, Duration.ofSeconds(1), Duration.ofSeconds(5));

        assertThat(IntStream.range(0, 5).mapToObj(tries -> ((RowDecision.Deferred) manyTries.failedTry(row(tries), "x")).retryAfter()))
                .containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(4), Duration.ofSeconds(5),
                        Duration.ofSeconds(5));
    }

    @Test
    void aFailedSendOnTheLastTryIsFailedOutOfTries() {
        RowDecision decision = decide.sent(row(4), TIMED_OUT);

        assertThat(decision).isEqualTo(new RowDecision.Failed(row(4), "after 5 tries: publish failed: TimeoutException: no ack in 30 s",
                true, null));
        assertThat(decision.result(DECIDED_AT)).contains(PublishResult.failed(
                "after 5 tries: publish failed: TimeoutException: no ack in 30 s", DECIDED_AT, null));
    }

    @Test
    void withOneTryTheFirstFailureIsFailed() {
        assertThat(new RowDecider(1, Duration.ofSeconds(1), Duration.ofSeconds(5)).sent(row(0), TIMED_OUT))
                .isInstanceOf(RowDecision.Failed.class);
    }

    @Test
    void aChangedSourceFailsAtOnceWithTriesLeftAndCountsNoTry() {
        RowDecision decision = decide.refused(row(0), new SourceCheck.Changed("source record gone: deleted"));

        assertThat(decision).isEqualTo(new RowDecision.Failed(row(0), "source record gone: deleted", false, null));
    }

    @Test
    void anUnreadableSourceCostsATry() {
        SourceCheck.Unreadable unreadable = new SourceCheck.Unreadable("source record could not be read: timed out");

        assertThat(decide.refused(row(0), unreadable)).isEqualTo(new RowDecision.Deferred(row(0), unreadable.reason(), Duration.ofSeconds(1)));
        assertThat(decide.refused(row(4), unreadable))
                .isEqualTo(new RowDecision.Failed(row(4), "after 5 tries: " + unreadable.reason(), true, null));
    }

    @Test
    void aRowPastItsReplayDeadlineFailsWithoutATry() {
        assertThat(decide.pastDeadline(row(2))).isEqualTo(new RowDecision.Failed(row(2), "past the replay deadline, not published", false, null));
    }

    @Test
    void aFailedRowCarriesTheEndOffsetReadForItsDecision() {
        RowDecision.Failed failed = ((RowDecision.Failed) decide.pastDeadline(row(0))).withEndOffset(231L);

        assertThat(failed.result(DECIDED_AT)).contains(PublishResult.failed("past the replay deadline, not published", DECIDED_AT, 231L));
    }

    @Test
    void aReasonIsKeptAsTheRowStoresIt() {
        RowDecision.Deferred deferred = (RowDecision.Deferred) decide.failedTry(row(0), "x".repeat(PublishResult.MAX_REASON_LENGTH + 10));

        assertThat(deferred.reason()).hasSize(PublishResult.MAX_REASON_LENGTH);
    }

    private static OutboxRow row(int tries) {
        return new OutboxRow(ID.replayId(1), ID, 1, ROOT.location(), RecordKey.of(new byte[] {7}), PayloadHash.of(new byte[] {1}), "billing",
                "desk-eu", OutboxRow.Status.PENDING, tries, null, null, null, null);
    }
}

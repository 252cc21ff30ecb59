package io.dlqdesk.domain;

import io.dlqdesk.domain.api.IncidentOpened;
import io.dlqdesk.domain.api.ReplayRejected;
import io.dlqdesk.domain.correlation.CorrelateRetryFailureCommand;
import io.dlqdesk.domain.correlation.CorrelationMismatch;
import io.dlqdesk.domain.incident.OpenIncidentCommand;
import io.dlqdesk.domain.replay.MarkPublishUnknownCommand;
import io.dlqdesk.domain.replay.RecordPublishResultCommand;
import io.dlqdesk.domain.replay.ReplayOutcome;
import io.dlqdesk.domain.replay.ReplayRefusal;
import io.dlqdesk.domain.replay.RequestReplayCommand;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static io.dlqdesk.domain.Samples.ALICE;
import static io.dlqdesk.domain.Samples.DETECTED;
import static io.dlqdesk.domain.Samples.ID;
import static io.dlqdesk.domain.Samples.LEDGER;
import static io.dlqdesk.domain.Samples.NOW;
import static io.dlqdesk.domain.Samples.POLICY;
import static io.dlqdesk.domain.Samples.ROOT;
import static io.dlqdesk.domain.Samples.headers;
import static io.dlqdesk.domain.Samples.sourceAsRecorded;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

/** Commands refuse malformed arguments before they reach the aggregate. */
class CommandTest {

    @Test
    void theReplayWindowIsPositiveAndAtMostAYear() {
        assertThat(OpenIncidentCommand.forFailure(ROOT, Duration.ofMillis(1), DETECTED).replayWindow()).isEqualTo(Duration.ofMillis(1));
        assertThat(OpenIncidentCommand.forFailure(ROOT, Duration.ofDays(365), DETECTED)).isNotNull();
        assertThatIllegalArgumentException().isThrownBy(() -> OpenIncidentCommand.forFailure(ROOT, Duration.ZERO, DETECTED));
        assertThatIllegalArgumentException().isThrownBy(() -> OpenIncidentCommand.forFailure(ROOT, Duration.ofMillis(-1), DETECTED));
        assertThatIllegalArgumentException().isThrownBy(() -> OpenIncidentCommand.forFailure(ROOT, Duration.ofDays(365).plusMillis(1), DETECTED));
    }

    @Test
    void anOpenCommandExposesItsFailureKeyAndKeepsItsMismatches() {
        var mismatches = new ArrayList<>(List.of(CorrelationMismatch.KEY_MISMATCH));
        var command = OpenIncidentCommand.forUncorrelatedRetryFailure(ROOT, Duration.ofDays(7), DETECTED, mismatches, null);
        mismatches.clear();
        assertThat(command.failureKey()).isEqualTo(ROOT.failureKey());
        assertThat(command.correlationMismatches()).containsExactly(CorrelationMismatch.KEY_MISMATCH);
        assertThat(OpenIncidentCommand.forFailure(ROOT, Duration.ofDays(7), DETECTED).correlationMismatches()).isEmpty();
    }

    @Test
    void onlyARecordWhoseKeyIsTakenMayBeKeyedByItsDlqRecord() {
        var byDlqRecord = io.dlqdesk.domain.incident.IncidentId.ofDlqRecord(ROOT.dlqLocation());
        assertThatIllegalArgumentException().isThrownBy(
                () -> new OpenIncidentCommand(byDlqRecord, ROOT, Duration.ofDays(7), DETECTED, List.of(CorrelationMismatch.KEY_MISMATCH)));
        assertThat(OpenIncidentCommand.forFailure(ROOT, Duration.ofDays(7), DETECTED).keyedByDlqRecord().incidentId()).isEqualTo(byDlqRecord);
    }

    @Test
    void anUncorrelatedReFailureNamesAtLeastOneFailedCheck() {
        assertThatIllegalArgumentException().isThrownBy(
                () -> OpenIncidentCommand.forUncorrelatedRetryFailure(ROOT, Duration.ofDays(7), DETECTED, List.of(), null));
    }

    @Test
    void anEventStoredWithoutMismatchesReadsAsNone() {
        assertThat(new IncidentOpened(ID, ROOT, DETECTED, null, null).correlationMismatches()).isEmpty();
        assertThat(new IncidentOpened(ID, ROOT, DETECTED, null, null).failureKey()).isEqualTo(ROOT.failureKey());
    }

    @Test
    void attemptsAreNumberedFromOne() {
        assertThat(new RecordPublishResultCommand(ID, 1, Samples.published(1)).attempt()).isEqualTo(1);
        assertThatIllegalArgumentException().isThrownBy(() -> new RecordPublishResultCommand(ID, 0, Samples.published(1)));
        assertThatIllegalArgumentException().isThrownBy(() -> new MarkPublishUnknownCommand(ID, 0, true, ALICE));
    }

    @Test
    void theLedgerNameIsMandatoryAndBounded() {
        assertThat(new RequestReplayCommand(ID, sourceAsRecorded(), POLICY, true, "l".repeat(249), ALICE)).isNotNull();
        assertThatIllegalArgumentException().isThrownBy(() -> new RequestReplayCommand(ID, sourceAsRecorded(), POLICY, true, "l".repeat(250), ALICE));
        assertThatIllegalArgumentException().isThrownBy(() -> new CorrelateRetryFailureCommand(ID, ROOT, headers(1), " ", NOW));
        assertThatNullPointerException().isThrownBy(() -> new CorrelateRetryFailureCommand(ID, ROOT, headers(1), null, NOW));
        assertThat(new CorrelateRetryFailureCommand(ID, ROOT, headers(1), LEDGER, NOW).ledgerName()).isEqualTo(LEDGER);
    }

    @Test
    void aReplayOutcomeIsEitherAnAttemptOrRefusals() {
        assertThat(ReplayOutcome.requested(2).attempt()).isEqualTo(2);
        assertThat(ReplayOutcome.rejected(List.of(ReplayRefusal.REPLAY_SWITCH_OFF)).attempt()).isNull();
        assertThatIllegalArgumentException().isThrownBy(() -> ReplayOutcome.rejected(List.of()));
        assertThatIllegalArgumentException().isThrownBy(() -> new ReplayOutcome(1, List.of(ReplayRefusal.REPLAY_SWITCH_OFF), null));
    }

    @Test
    void aRejectionKeepsItsReasonsAsGiven() {
        var reasons = new ArrayList<>(List.of(ReplayRefusal.AFTER_DEADLINE));
        var rejected = new ReplayRejected(ID, reasons, ALICE);
        reasons.clear();
        assertThat(rejected.reasons()).containsExactly(ReplayRefusal.AFTER_DEADLINE);
    }

    @Test
    void theRefusalExceptionsSayWhatAndWhere() {
        var refused = new IncidentCommandRefusedException(ID, IncidentErrorCode.NOT_OPEN, "it is ACKED");
        assertThat(refused).hasMessage("NOT_OPEN (" + ID + "): it is ACKED");
        var notCorrelated = new RetryFailureNotCorrelatedException(ID, ROOT.failureKey(), List.of(CorrelationMismatch.KEY_MISMATCH));
        assertThat(notCorrelated.getMessage()).contains("RETRY_FAILURE_NOT_CORRELATED", "KEY_MISMATCH");
    }
}

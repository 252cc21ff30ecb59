package io.dlqdesk.domain;

import io.dlqdesk.domain.api.IncidentOpened;
import io.dlqdesk.domain.api.ReplayRequested;
import io.dlqdesk.domain.api.RetryFailureCorrelated;
import io.dlqdesk.domain.correlation.CorrelateRetryFailureCommand;
import io.dlqdesk.domain.correlation.CorrelationMismatch;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.OpenIncidentCommand;
import io.dlqdesk.domain.incident.OperatorAction;
import io.dlqdesk.domain.record.EventId;
import io.dlqdesk.domain.record.ExceptionSummary;
import io.dlqdesk.domain.record.FailedRecord;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.domain.record.OriginalTimestamp;
import io.dlqdesk.domain.record.PayloadHash;
import io.dlqdesk.domain.record.RecordKey;
import io.dlqdesk.domain.record.RecordLocation;
import io.dlqdesk.domain.record.TimestampType;
import io.dlqdesk.domain.replay.PublishResult;
import io.dlqdesk.domain.replay.ReplayHeaders;
import io.dlqdesk.domain.replay.ReplayPolicy;
import io.dlqdesk.domain.replay.RequestReplayCommand;
import io.dlqdesk.domain.replay.SourceRecordFacts;

import org.axonframework.test.matchers.Matchers;
import org.hamcrest.Matcher;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/** One failing record, its replays and re-failures, shared by the tests. */
final class Samples {

    static final String LEDGER = "desk-prod";
    static final String GROUP = "billing";
    static final Duration WINDOW = Duration.ofDays(7);
    static final Instant ORIGINAL_TIME = Instant.parse("2026-11-28T10:00:00Z");
    static final Instant DEADLINE = ORIGINAL_TIME.plus(WINDOW);
    static final Instant DETECTED = Instant.parse("2026-11-28T10:01:00Z");
    static final Instant NOW = Instant.parse("2026-11-30T07:00:00Z");

    static final FailureKey ROOT_KEY = new FailureKey("orders", 3, 42L, GROUP);
    static final IncidentId ID = IncidentId.of(ROOT_KEY);
    static final RecordKey KEY = RecordKey.of("order-7".getBytes(StandardCharsets.UTF_8));
    static final EventId EVENT_ID = new EventId("evt-0001");
    static final PayloadHash HASH = PayloadHash.of("{\"order\":7}".getBytes(StandardCharsets.UTF_8));
    static final OriginalTimestamp TIMESTAMP = new OriginalTimestamp(ORIGINAL_TIME, TimestampType.CREATE_TIME);
    static final ExceptionSummary EXCEPTION = new ExceptionSummary("com.example.StockException", "no stock");

    static final FailedRecord ROOT = new FailedRecord(ROOT_KEY, new RecordLocation("orders.dlq", 0, 9L), KEY, EVENT_ID,
            TIMESTAMP, HASH, EXCEPTION);

    static final OperatorAction ALICE = new OperatorAction("alice", "consumer fixed in 1.4.2", NOW);
    static final ReplayPolicy POLICY = new ReplayPolicy(true, 3);

    private Samples() {
    }

    /** A refusal of this incident with this code (Axon's fixture matches exceptions with Hamcrest). */
    static Matcher<Object> refused(IncidentErrorCode code) {
        return Matchers.predicate(e -> e instanceof IncidentCommandRefusedException refused
                && refused.code() == code && refused.incidentId().equals(ID));
    }

    /** A correlation refusal listing exactly these failed checks. */
    static Matcher<Object> notCorrelated(FailureKey failureKey, CorrelationMismatch... mismatches) {
        return Matchers.predicate(e -> e instanceof RetryFailureNotCorrelatedException refused
                && refused.code() == IncidentErrorCode.RETRY_FAILURE_NOT_CORRELATED && refused.incidentId().equals(ID)
                && refused.failureKey().equals(failureKey) && refused.mismatches().equals(List.of(mismatches)));
    }

    static OpenIncidentCommand open() {
        return OpenIncidentCommand.forFailure(ROOT, WINDOW, DETECTED);
    }

    static IncidentOpened opened() {
        return opened(ROOT);
    }

    static IncidentOpened opened(FailedRecord root) {
        Instant deadline = root.originalTimestamp() == null ? null : root.originalTimestamp().instant().plus(WINDOW);
        return new IncidentOpened(IncidentId.forFailure(root), root, DETECTED, deadline, List.of());
    }

    /** What a faithful read of the root's location returns. */
    static SourceRecordFacts sourceAsRecorded() {
        return SourceRecordFacts.found(ROOT_KEY.location(), ROOT_KEY.offset(), KEY, EVENT_ID, HASH, TIMESTAMP);
    }

    static RequestReplayCommand requestReplay() {
        return requestReplay(sourceAsRecorded(), POLICY, true, NOW);
    }

    static RequestReplayCommand requestReplay(SourceRecordFacts source, ReplayPolicy policy, boolean switchOn, Instant now) {
        return new RequestReplayCommand(ID, source, policy, switchOn, LEDGER,
                new OperatorAction("alice", "consumer fixed in 1.4.2", now));
    }

    static ReplayRequested replayRequested(int attempt, FailureKey claimed) {
        return replayRequested(attempt, claimed, ALICE);
    }

    static ReplayRequested replayRequested(int attempt, FailureKey claimed, OperatorAction by) {
        return new ReplayRequested(ID, attempt, claimed, ROOT_KEY.location(), GROUP, KEY, EVENT_ID, HASH, TIMESTAMP,
                DEADLINE, LEDGER, by);
    }

    static PublishResult published(long offset) {
        return PublishResult.published(new RecordLocation("orders", 3, offset), NOW.plusSeconds(1));
    }

    /** The re-failure of the replay of {@code attempt}, which Kafka put at {@code replayedOffset}. */
    static FailedRecord reFailure(long replayedOffset) {
        return new FailedRecord(new FailureKey("orders", 3, replayedOffset, GROUP),
                new RecordLocation("orders.dlq", 0, 100 + replayedOffset), KEY, EVENT_ID, TIMESTAMP, HASH, EXCEPTION);
    }

    static ReplayHeaders headers(int attempt) {
        return new ReplayHeaders(ID.value(), Integer.toString(attempt), LEDGER, GROUP);
    }

    static CorrelateRetryFailureCommand correlate(FailedRecord failure, int attempt) {
        return new CorrelateRetryFailureCommand(ID, failure, headers(attempt), LEDGER, NOW.plusSeconds(60));
    }

    static RetryFailureCorrelated correlated(FailedRecord failure, int attempt) {
        return new RetryFailureCorrelated(ID, failure, attempt, NOW.plusSeconds(60), DEADLINE, headers(attempt));
    }
}

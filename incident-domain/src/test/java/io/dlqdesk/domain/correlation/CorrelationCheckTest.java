package io.dlqdesk.domain.correlation;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.record.EventId;
import io.dlqdesk.domain.record.FailedRecord;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.domain.record.OriginalTimestamp;
import io.dlqdesk.domain.record.PayloadHash;
import io.dlqdesk.domain.record.RecordKey;
import io.dlqdesk.domain.record.RecordLocation;
import io.dlqdesk.domain.record.TimestampType;
import io.dlqdesk.domain.replay.ReplayHeaders;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Arrays;
import java.util.List;

import static io.dlqdesk.domain.correlation.CorrelationMismatch.ATTEMPT_MISMATCH;
import static io.dlqdesk.domain.correlation.CorrelationMismatch.TARGET_GROUP_MISMATCH;
import static io.dlqdesk.domain.correlation.CorrelationMismatch.VALUE_HASH_MISMATCH;
import static org.assertj.core.api.Assertions.assertThat;

/** Each of the nine correlation checks on its own. */
class CorrelationCheckTest {

    static final String LEDGER = "desk-prod";
    static final FailureKey ROOT_KEY = new FailureKey("orders", 3, 42L, "billing");
    static final IncidentId ID = IncidentId.of(ROOT_KEY);
    static final RecordKey KEY = RecordKey.of(new byte[] {7});
    static final EventId EVENT_ID = new EventId("evt-1");
    static final PayloadHash HASH = PayloadHash.of(new byte[] {1, 2});
    static final OriginalTimestamp TIMESTAMP = OriginalTimestamp.ofEpochMilli(1_700_000_000_000L, TimestampType.CREATE_TIME);
    static final RecordedReplay RECORDED = new RecordedReplay(ID, "orders", EVENT_ID, KEY, TIMESTAMP,
            List.of(new RecordedAttempt(1, "billing", HASH), new RecordedAttempt(2, "billing", HASH)));

    static FailedRecord failure(String topic, String group, RecordKey key, EventId eventId, OriginalTimestamp timestamp,
                                PayloadHash hash) {
        return new FailedRecord(new FailureKey(topic, 3, 77L, group), new RecordLocation("orders.dlq", 0, 5L), key, eventId,
                timestamp, hash, null);
    }

    static final FailedRecord MATCHING = failure("orders", "billing", KEY, EVENT_ID, TIMESTAMP, HASH);
    static final ReplayHeaders HEADERS = new ReplayHeaders(ID.value(), "2", LEDGER, "billing");

    static List<CorrelationMismatch> check(FailedRecord failure, ReplayHeaders headers) {
        return CorrelationCheck.mismatches(new CorrelationFacts(failure, headers, LEDGER, RECORDED));
    }

    @Test
    void aFaithfulReFailurePassesAllNine() {
        var facts = new CorrelationFacts(MATCHING, HEADERS, LEDGER, RECORDED);
        assertThat(CorrelationCheck.values()).allMatch(c -> c.passes(facts));
        assertThat(CorrelationCheck.mismatches(facts)).isEmpty();
    }

    @Test
    void everyCodeBelongsToExactlyOneCheck() {
        // FAILURE_KEY_TAKEN is the aggregate's (it needs the failures it recorded), not one of the nine
        assertThat(Arrays.stream(CorrelationCheck.values()).map(CorrelationCheck::mismatch))
                .doesNotHaveDuplicates().containsExactlyInAnyOrder(Arrays.stream(CorrelationMismatch.values())
                        .filter(code -> code != CorrelationMismatch.FAILURE_KEY_TAKEN).toArray(CorrelationMismatch[]::new));
    }

    // 1
    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"", "3", "0", "02", "+2", " 2", "2 ", "2.0", "two", "99999999999", "-2"})
    void anAttemptHeaderThatNamesNoRecordedAttemptFailsTheChecksThatNeedIt(String attempt) {
        assertThat(check(MATCHING, new ReplayHeaders(ID.value(), attempt, LEDGER, "billing")))
                .containsExactly(ATTEMPT_MISMATCH, TARGET_GROUP_MISMATCH, VALUE_HASH_MISMATCH);
    }

    @Test
    void anyRecordedAttemptCanBeNamed() {
        assertThat(check(MATCHING, new ReplayHeaders(ID.value(), "1", LEDGER, "billing"))).isEmpty();
    }

    // 2
    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"", "desk-staging", "DESK-PROD", "desk-prod "})
    void aReFailureOwnedByAnotherLedgerFails(String owner) {
        assertThat(check(MATCHING, new ReplayHeaders(ID.value(), "2", owner, "billing"))).containsExactly(CorrelationMismatch.OWNER_MISMATCH);
    }

    // 3
    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"", "shipping", "Billing"})
    void aTargetGroupHeaderOtherThanTheFailingGroupFails(String group) {
        assertThat(check(MATCHING, new ReplayHeaders(ID.value(), "2", LEDGER, group))).containsExactly(TARGET_GROUP_MISMATCH);
    }

    @Test
    void aReFailureInAnotherGroupThanTheHeaderSaysFails() {
        FailedRecord otherGroup = failure("orders", "shipping", KEY, EVENT_ID, TIMESTAMP, HASH);
        assertThat(check(otherGroup, HEADERS)).containsExactly(TARGET_GROUP_MISMATCH);
    }

    @Test
    void aGroupThatMatchesTheHeaderButNotTheRecordedAttemptFails() {
        FailedRecord otherGroup = failure("orders", "shipping", KEY, EVENT_ID, TIMESTAMP, HASH);
        assertThat(check(otherGroup, new ReplayHeaders(ID.value(), "2", LEDGER, "shipping"))).containsExactly(TARGET_GROUP_MISMATCH);
    }

    // 4
    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"", "inc-00000000000000000000000000000000", " inc-x", "INC-1"})
    void aRootHeaderNamingAnotherIncidentFails(String root) {
        assertThat(check(MATCHING, new ReplayHeaders(root, "2", LEDGER, "billing"))).containsExactly(CorrelationMismatch.ROOT_INCIDENT_MISMATCH);
    }

    @Test
    void theRootHeaderIsComparedStrictly() {
        assertThat(check(MATCHING, new ReplayHeaders(ID.value().toUpperCase(), "2", LEDGER, "billing")))
                .containsExactly(CorrelationMismatch.ROOT_INCIDENT_MISMATCH);
    }

    // 5
    @Test
    void aReFailureOnAnotherTopicFails() {
        assertThat(check(failure("orders-v2", "billing", KEY, EVENT_ID, TIMESTAMP, HASH), HEADERS))
                .containsExactly(CorrelationMismatch.TOPIC_MISMATCH);
    }

    // 6
    @Test
    void aReFailureWithAnotherEventIdFails() {
        assertThat(check(failure("orders", "billing", KEY, new EventId("evt-2"), TIMESTAMP, HASH), HEADERS))
                .containsExactly(CorrelationMismatch.EVENT_ID_MISMATCH);
    }

    @Test
    void aReFailureWithoutEventIdFailsEvenIfNoneWasRecorded() {
        var recorded = new RecordedReplay(ID, "orders", null, KEY, TIMESTAMP, RECORDED.attempts());
        assertThat(CorrelationCheck.mismatches(new CorrelationFacts(failure("orders", "billing", KEY, null, TIMESTAMP, HASH),
                HEADERS, LEDGER, recorded))).containsExactly(CorrelationMismatch.EVENT_ID_MISMATCH);
    }

    // 7
    @Test
    void aReFailureWithAnotherKeyFails() {
        assertThat(check(failure("orders", "billing", RecordKey.of(new byte[] {7, 0}), EVENT_ID, TIMESTAMP, HASH), HEADERS))
                .containsExactly(CorrelationMismatch.KEY_MISMATCH);
    }

    @Test
    void twoNullKeysAreTheSameKey() {
        var recorded = new RecordedReplay(ID, "orders", EVENT_ID, RecordKey.NONE, TIMESTAMP, RECORDED.attempts());
        assertThat(CorrelationCheck.mismatches(new CorrelationFacts(failure("orders", "billing", RecordKey.NONE, EVENT_ID, TIMESTAMP, HASH),
                HEADERS, LEDGER, recorded))).isEmpty();
    }

    // 8
    @ParameterizedTest
    @EnumSource(TimestampType.class)
    void aReFailureWithAnotherTimestampFails(TimestampType type) {
        OriginalTimestamp other = switch (type) {
            case CREATE_TIME -> OriginalTimestamp.ofEpochMilli(1_700_000_000_001L, type);
            case LOG_APPEND_TIME -> OriginalTimestamp.ofEpochMilli(1_700_000_000_000L, type);
            case UNKNOWN -> OriginalTimestamp.ofEpochMilliWithUnknownType(1_700_000_000_000L, "CreateTime ");
        };
        assertThat(check(failure("orders", "billing", KEY, EVENT_ID, other, HASH), HEADERS))
                .containsExactly(CorrelationMismatch.ORIGINAL_TIMESTAMP_MISMATCH);
    }

    @Test
    void onALogAppendTimeTopicTheTimestampCheckIsSkippedAndSaysWhy() {
        OriginalTimestamp recordedTime = OriginalTimestamp.ofEpochMilli(1_700_000_000_000L, TimestampType.LOG_APPEND_TIME);
        var recorded = new RecordedReplay(ID, "orders", EVENT_ID, KEY, recordedTime, RECORDED.attempts());
        var facts = new CorrelationFacts(failure("orders", "billing", KEY, EVENT_ID,
                OriginalTimestamp.ofEpochMilli(1_700_000_999_000L, TimestampType.LOG_APPEND_TIME), HASH), HEADERS, LEDGER, recorded);

        assertThat(CorrelationCheck.mismatches(facts)).isEmpty();
        assertThat(CorrelationCheck.skipped(facts)).singleElement().satisfies(skipped -> {
            assertThat(skipped.check()).isEqualTo(CorrelationMismatch.ORIGINAL_TIMESTAMP_MISMATCH);
            assertThat(skipped.reason()).contains("LogAppendTime");
        });
    }

    @Test
    void onlyBothSidesStampedLogAppendTimeSkipTheCheck() {
        OriginalTimestamp logAppend = OriginalTimestamp.ofEpochMilli(1_700_000_999_000L, TimestampType.LOG_APPEND_TIME);
        // recorded CreateTime, re-failure LogAppendTime: a header that changed its story fails
        var facts = new CorrelationFacts(failure("orders", "billing", KEY, EVENT_ID, logAppend, HASH), HEADERS, LEDGER, RECORDED);
        assertThat(CorrelationCheck.mismatches(facts)).containsExactly(CorrelationMismatch.ORIGINAL_TIMESTAMP_MISMATCH);
        assertThat(CorrelationCheck.skipped(facts)).isEmpty();
        // all nine held: nothing skipped
        assertThat(CorrelationCheck.skipped(new CorrelationFacts(failure("orders", "billing", KEY, EVENT_ID, TIMESTAMP, HASH), HEADERS,
                LEDGER, RECORDED))).isEmpty();
    }

    @Test
    void aReFailureWithoutTimestampFails() {
        var recorded = new RecordedReplay(ID, "orders", EVENT_ID, KEY, null, RECORDED.attempts());
        assertThat(CorrelationCheck.mismatches(new CorrelationFacts(failure("orders", "billing", KEY, EVENT_ID, null, HASH),
                HEADERS, LEDGER, recorded))).containsExactly(CorrelationMismatch.ORIGINAL_TIMESTAMP_MISMATCH);
    }

    // 9
    @Test
    void sameEventIdAndKeyWithAnotherBodyFails() {
        assertThat(check(failure("orders", "billing", KEY, EVENT_ID, TIMESTAMP, PayloadHash.of(new byte[] {1, 3})), HEADERS))
                .containsExactly(VALUE_HASH_MISMATCH);
    }

    @Test
    void aTombstoneReFailureHasNoHashAndFails() {
        assertThat(check(failure("orders", "billing", KEY, EVENT_ID, TIMESTAMP, null), HEADERS)).containsExactly(VALUE_HASH_MISMATCH);
    }

    @Test
    void theHashIsComparedWithTheNamedAttemptsHash() {
        PayloadHash other = PayloadHash.of(new byte[] {9});
        var recorded = new RecordedReplay(ID, "orders", EVENT_ID, KEY, TIMESTAMP,
                List.of(new RecordedAttempt(1, "billing", other), new RecordedAttempt(2, "billing", HASH)));
        var facts = new CorrelationFacts(MATCHING, new ReplayHeaders(ID.value(), "1", LEDGER, "billing"), LEDGER, recorded);
        assertThat(CorrelationCheck.mismatches(facts)).containsExactly(VALUE_HASH_MISMATCH);
    }

    @Test
    void everythingWrongReportsAllNine() {
        FailedRecord stranger = failure("payments", "shipping", RecordKey.NONE, new EventId("x"),
                OriginalTimestamp.ofEpochMilli(0, TimestampType.LOG_APPEND_TIME), PayloadHash.of(new byte[0]));
        assertThat(check(stranger, new ReplayHeaders("garbage", "x", "y", "z")))
                .containsExactly(Arrays.stream(CorrelationCheck.values()).map(CorrelationCheck::mismatch).toArray(CorrelationMismatch[]::new))
                .hasSize(9);
    }

    @Test
    void theNamedAttemptIsFoundByNumber() {
        assertThat(RECORDED.attempt(2)).contains(new RecordedAttempt(2, "billing", HASH));
        assertThat(RECORDED.attempt(3)).isEmpty();
        assertThat(new CorrelationFacts(MATCHING, HEADERS, LEDGER, RECORDED).namedAttempt()).contains(RECORDED.attempts().get(1));
        assertThat(new CorrelationFacts(MATCHING, new ReplayHeaders(null, "123456789", null, null), LEDGER, RECORDED).namedAttempt()).isEmpty();
    }

    @Test
    void theRecordedHistoryCannotBeChangedAfterwards() {
        var attempts = new java.util.ArrayList<>(List.of(new RecordedAttempt(1, "billing", HASH)));
        var recorded = new RecordedReplay(ID, "orders", EVENT_ID, KEY, TIMESTAMP, attempts);
        attempts.clear();
        assertThat(recorded.attempts()).hasSize(1);
    }

}

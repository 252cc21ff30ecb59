package io.dlqdesk.domain.replay;

import io.dlqdesk.domain.incident.IncidentStatus;
import io.dlqdesk.domain.record.EventId;
import io.dlqdesk.domain.record.OriginalTimestamp;
import io.dlqdesk.domain.record.PayloadHash;
import io.dlqdesk.domain.record.RecordKey;
import io.dlqdesk.domain.record.RecordLocation;
import io.dlqdesk.domain.record.TimestampType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Instant;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Each replay condition on its own: it holds for a replayable incident, and one change breaks exactly it. */
class ReplayConditionTest {

    static final RecordLocation LOCATION = new RecordLocation("orders", 3, 42L);
    static final RecordKey KEY = RecordKey.of(new byte[] {1, 2, 3});
    static final EventId EVENT_ID = new EventId("evt-1");
    static final PayloadHash HASH = PayloadHash.of(new byte[] {4, 5, 6});
    static final Instant DEADLINE = Instant.parse("2026-12-05T10:00:00Z");
    static final OriginalTimestamp ORIGINAL = new OriginalTimestamp(DEADLINE.minusSeconds(7 * 86400), TimestampType.CREATE_TIME);

    /** A mutable copy of the facts, so each test changes one thing. */
    static final class Facts {
        IncidentStatus status = IncidentStatus.OPEN;
        EventId eventId = EVENT_ID;
        String failedGroup = "billing";
        RecordLocation originalLocation = LOCATION;
        RecordKey key = KEY;
        PayloadHash valueHash = HASH;
        OriginalTimestamp originalTimestamp = ORIGINAL;
        Instant replayDeadline = DEADLINE;
        int attemptsSoFar = 2;
        boolean attemptRequested = false;
        PublishStatus claimedStatus = PublishStatus.NONE;
        SourceRecordFacts source = SourceRecordFacts.found(LOCATION, 42L, KEY, EVENT_ID, HASH, ORIGINAL);
        ReplayPolicy policy = new ReplayPolicy(true, 3);
        boolean switchOn = true;
        Instant now = DEADLINE.minusMillis(1);
        KeyFreshness keyFreshness = KeyFreshness.fresh("no later record with the key up to the committed offset");
        boolean staleKeyOverridden = false;
        ReplayFacts.RequestedEdit edit = ReplayFacts.RequestedEdit.APPROVED;

        ReplayFacts build() {
            return new ReplayFacts(status, eventId, failedGroup, originalLocation, key, valueHash, originalTimestamp,
                    replayDeadline, attemptsSoFar, attemptRequested, claimedStatus, source, policy, switchOn, now, keyFreshness,
                    staleKeyOverridden, edit);
        }
    }

    /** Breaks exactly the given condition. */
    static Facts breaking(ReplayCondition condition) {
        Facts f = new Facts();
        switch (condition) {
            case EVENT_ID_KNOWN -> f.eventId = null;
            case FAILED_GROUP_KNOWN -> f.failedGroup = " ";
            case LOCATION_KNOWN -> f.originalLocation = null;
            case LOCATION_VALID -> f.source = new SourceRecordFacts(LOCATION, false, true, 42L, KEY, EVENT_ID, HASH, false, ORIGINAL, null);
            case TOPIC_ALLOWED -> f.policy = new ReplayPolicy(false, 3);
            case ORIGINAL_TIMESTAMP_KNOWN -> f.originalTimestamp = null;
            case BEFORE_DEADLINE -> f.now = DEADLINE;
            case SOURCE_RECORD_FOUND -> f.source = SourceRecordFacts.notFound(LOCATION);
            case SOURCE_READ_AT_RECORDED_LOCATION -> f.source = SourceRecordFacts.found(new RecordLocation("orders", 4, 42L), 42L, KEY, EVENT_ID, HASH, ORIGINAL);
            case SAME_OFFSET -> f.source = SourceRecordFacts.found(LOCATION, 43L, KEY, EVENT_ID, HASH, ORIGINAL);
            case SAME_KEY -> f.source = SourceRecordFacts.found(LOCATION, 42L, RecordKey.NONE, EVENT_ID, HASH, ORIGINAL);
            case SAME_EVENT_ID -> f.source = SourceRecordFacts.found(LOCATION, 42L, KEY, new EventId("evt-2"), HASH, ORIGINAL);
            case NOT_TOMBSTONE -> f.source = SourceRecordFacts.tombstone(LOCATION, 42L, KEY, EVENT_ID, ORIGINAL);
            case SAME_VALUE_HASH -> f.source = SourceRecordFacts.found(LOCATION, 42L, KEY, EVENT_ID, PayloadHash.of(new byte[0]), ORIGINAL);
            case NOT_CLOSED -> f.status = IncidentStatus.RESOLVED;
            case NO_ATTEMPT_REQUESTED -> f.attemptRequested = true;
            case CLAIMED_NOT_PUBLISHED -> f.claimedStatus = PublishStatus.PUBLISHED;
            case CLAIMED_OUTCOME_KNOWN -> f.claimedStatus = PublishStatus.PUBLISH_UNKNOWN;
            case SWITCH_ON -> f.switchOn = false;
            case UNDER_MAX_ATTEMPTS -> f.attemptsSoFar = 3;
            // the DLQ header said a day later than the record itself carries
            case SAME_TIMESTAMP -> f.source = SourceRecordFacts.found(LOCATION, 42L, KEY, EVENT_ID, HASH,
                    new OriginalTimestamp(ORIGINAL.instant().minusSeconds(86400), TimestampType.CREATE_TIME));
            // the topic deletes it the moment the request is made
            case WITHIN_SOURCE_RETENTION -> f.source = SourceRecordFacts.found(LOCATION, 42L, KEY, EVENT_ID, HASH, ORIGINAL)
                    .withRetention(java.time.Duration.between(ORIGINAL.instant(), f.now).toMillis());
            case KEY_NOT_STALE -> f.keyFreshness = KeyFreshness.stale(57, "offset 57 has the key; the group committed 60");
            case KEY_FRESHNESS_KNOWN -> f.keyFreshness = KeyFreshness.unknown("120000 records between, more than 100000");
            case EDIT_KNOWN -> f.edit = ReplayFacts.RequestedEdit.UNKNOWN;
            case EDIT_APPROVED -> f.edit = ReplayFacts.RequestedEdit.NOT_APPROVED;
        }
        return f;
    }

    @Test
    void everyConditionHoldsForAReplayableIncident() {
        ReplayFacts facts = new Facts().build();
        assertThat(ReplayCondition.values()).allMatch(condition -> condition.holdsFor(facts));
        assertThat(ReplayCondition.failedFor(facts)).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(value = ReplayCondition.class, mode = EnumSource.Mode.EXCLUDE, names = {"EVENT_ID_KNOWN", "LOCATION_KNOWN",
            "ORIGINAL_TIMESTAMP_KNOWN"})
    void eachConditionFailsAloneAndReportsItsOwnCode(ReplayCondition condition) {
        ReplayFacts facts = breaking(condition).build();
        assertThat(condition.holdsFor(facts)).isFalse();
        assertThat(ReplayCondition.failedFor(facts)).containsExactly(condition.refusal());
    }

    @Test
    void anUnknownEventIdAlsoFailsTheComparisonWithTheSourceRecord() {
        // nothing recorded to compare with is not a match: fail closed
        assertThat(ReplayCondition.failedFor(breaking(ReplayCondition.EVENT_ID_KNOWN).build()))
                .containsExactly(ReplayRefusal.EVENT_ID_UNKNOWN, ReplayRefusal.SOURCE_EVENT_ID_MISMATCH);
    }

    @Test
    void anUnknownOriginalTimestampAlsoFailsTheComparisonWithTheSourceRecordsOwn() {
        assertThat(ReplayCondition.failedFor(breaking(ReplayCondition.ORIGINAL_TIMESTAMP_KNOWN).build()))
                .containsExactly(ReplayRefusal.ORIGINAL_TIMESTAMP_UNKNOWN, ReplayRefusal.SOURCE_TIMESTAMP_MISMATCH);
    }

    @Test
    void aDlqHeaderThatSaysNowDoesNotMakeAnEightDayOldRecordReplayable() {
        Facts f = new Facts();
        f.originalTimestamp = new OriginalTimestamp(f.now.minusSeconds(60), TimestampType.CREATE_TIME); // the forged header
        f.replayDeadline = f.originalTimestamp.instant().plus(java.time.Duration.ofDays(7)); // the window it opened
        f.source = SourceRecordFacts.found(LOCATION, 42L, KEY, EVENT_ID, HASH,
                new OriginalTimestamp(f.now.minus(java.time.Duration.ofDays(8)), TimestampType.CREATE_TIME));

        assertThat(ReplayCondition.failedFor(f.build())).containsExactly(ReplayRefusal.SOURCE_TIMESTAMP_MISMATCH);
    }

    /** The same record on a LogAppendTime topic, its DLQ writer naming the type CreateTime, or none: the instant decides. */
    @Test
    void theSameInstantUnderAnotherTypeNameIsTheSameTimestamp() {
        Facts f = new Facts();
        for (OriginalTimestamp read : new OriginalTimestamp[] {new OriginalTimestamp(ORIGINAL.instant(), TimestampType.LOG_APPEND_TIME),
                OriginalTimestamp.ofEpochMilliWithUnknownType(ORIGINAL.instant().toEpochMilli(), "NoTimestampType")}) {
            f.source = SourceRecordFacts.found(LOCATION, 42L, KEY, EVENT_ID, HASH, read);
            assertThat(ReplayCondition.failedFor(f.build())).as(read.toString()).isEmpty();
        }
        f.source = SourceRecordFacts.found(LOCATION, 42L, KEY, EVENT_ID, HASH, null);
        assertThat(ReplayCondition.failedFor(f.build())).as("a record without a timestamp").containsExactly(ReplayRefusal.SOURCE_TIMESTAMP_MISMATCH);
    }

    @Test
    void aRetentionThatKeepsTheRecordPastTheRequestAllowsItAndNoneOrAnUnknownOneChangesNothing() {
        Facts f = new Facts();
        SourceRecordFacts found = SourceRecordFacts.found(LOCATION, 42L, KEY, EVENT_ID, HASH, ORIGINAL);
        for (Long retention : new Long[] {null, -1L, java.time.Duration.between(ORIGINAL.instant(), f.now).toMillis() + 1}) {
            f.source = found.withRetention(retention);
            assertThat(ReplayCondition.failedFor(f.build())).as("retention.ms " + retention).isEmpty();
        }
    }

    @Test
    void anUnknownLocationAlsoFailsTheComparisonWithWhereTheFactsWereRead() {
        assertThat(ReplayCondition.failedFor(breaking(ReplayCondition.LOCATION_KNOWN).build()))
                .containsExactly(ReplayRefusal.LOCATION_UNKNOWN, ReplayRefusal.SOURCE_LOCATION_MISMATCH);
    }

    @Test
    void everyCodeBelongsToExactlyOneCondition() {
        assertThat(Arrays.stream(ReplayCondition.values()).map(ReplayCondition::refusal))
                .doesNotHaveDuplicates()
                .containsExactlyInAnyOrder(ReplayRefusal.values());
    }

    @Test
    void factsTheIncidentAlwaysKnowsCannotBeMissing() {
        Facts f = new Facts();
        f.claimedStatus = null;
        org.assertj.core.api.Assertions.assertThatNullPointerException().isThrownBy(f::build).withMessage("claimedStatus");
    }

    @Test
    void aNullGroupIsUnknownToo() {
        Facts f = new Facts();
        f.failedGroup = null;
        assertThat(ReplayCondition.failedFor(f.build())).containsExactly(ReplayRefusal.FAILED_GROUP_UNKNOWN);
    }

    @Test
    void withoutADeadlineReplayIsRefusedEvenLongBeforeIt() {
        Facts f = new Facts();
        f.replayDeadline = null;
        f.now = Instant.EPOCH;
        assertThat(ReplayCondition.BEFORE_DEADLINE.holdsFor(f.build())).isFalse();
    }

    @Test
    void replayIsRefusedAfterDeadlineButAllowedJustBefore() {
        Facts f = new Facts();
        f.now = DEADLINE.minusMillis(1);
        assertThat(ReplayCondition.BEFORE_DEADLINE.holdsFor(f.build())).isTrue();
        f.now = DEADLINE.plusMillis(1);
        assertThat(ReplayCondition.BEFORE_DEADLINE.holdsFor(f.build())).isFalse();
    }

    @Test
    void aRecordThatIsNotThereFailsOnlyAsNotFound() {
        Facts f = new Facts();
        f.source = SourceRecordFacts.outOfRange(LOCATION);
        assertThat(ReplayCondition.failedFor(f.build()))
                .containsExactly(ReplayRefusal.LOCATION_INVALID, ReplayRefusal.SOURCE_RECORD_NOT_FOUND);
    }

    @Test
    void aTombstoneWithAnotherKeyReportsBoth() {
        Facts f = new Facts();
        f.source = SourceRecordFacts.tombstone(LOCATION, 42L, RecordKey.NONE, EVENT_ID, ORIGINAL);
        assertThat(ReplayCondition.failedFor(f.build())).containsExactly(ReplayRefusal.SOURCE_KEY_MISMATCH, ReplayRefusal.SOURCE_TOMBSTONE);
    }

    @Test
    void aSourceRecordWithoutEventIdDoesNotMatchEvenWhenNoneWasRecorded() {
        Facts f = new Facts();
        f.eventId = null;
        f.source = SourceRecordFacts.found(LOCATION, 42L, KEY, null, HASH, ORIGINAL);
        assertThat(ReplayCondition.SAME_EVENT_ID.holdsFor(f.build())).isFalse();
    }

    @Test
    void aValueWithNoRecordedHashCannotBeVerified() {
        Facts f = new Facts();
        f.valueHash = null;
        assertThat(ReplayCondition.failedFor(f.build())).containsExactly(ReplayRefusal.SOURCE_VALUE_HASH_MISMATCH);
    }

    @ParameterizedTest
    @EnumSource(value = IncidentStatus.class, names = {"OPEN", "ACKED"})
    void replayIsAllowedWhileTheIncidentIsNotClosed(IncidentStatus status) {
        Facts f = new Facts();
        f.status = status;
        assertThat(ReplayCondition.NOT_CLOSED.holdsFor(f.build())).isTrue();
    }

    @ParameterizedTest
    @EnumSource(value = IncidentStatus.class, names = {"RESOLVED", "DISCARDED"})
    void replayIsRefusedOnceTheIncidentIsClosed(IncidentStatus status) {
        Facts f = new Facts();
        f.status = status;
        assertThat(ReplayCondition.NOT_CLOSED.holdsFor(f.build())).isFalse();
    }

    @ParameterizedTest
    @EnumSource(value = PublishStatus.class, names = {"NONE", "PUBLISH_FAILED"})
    void theClaimedFailureIsReplayableWhenNeverRequestedOrFailed(PublishStatus status) {
        Facts f = new Facts();
        f.claimedStatus = status;
        assertThat(ReplayCondition.failedFor(f.build())).isEmpty();
    }

    @Test
    void theAttemptBelowTheMaximumIsAllowed() {
        Facts f = new Facts();
        f.attemptsSoFar = 2;
        f.policy = new ReplayPolicy(true, 3);
        assertThat(ReplayCondition.UNDER_MAX_ATTEMPTS.holdsFor(f.build())).isTrue();
        f.attemptsSoFar = 3;
        assertThat(ReplayCondition.UNDER_MAX_ATTEMPTS.holdsFor(f.build())).isFalse();
    }

    @ParameterizedTest
    @EnumSource(value = KeyFreshness.State.class, names = {"NOT_CHECKED", "FRESH"})
    void aKeyNotCheckedOrFreshIsReplayable(KeyFreshness.State state) {
        Facts f = new Facts();
        f.keyFreshness = new KeyFreshness(state, null, "found");
        assertThat(ReplayCondition.failedFor(f.build())).isEmpty();
    }

    @Test
    void aStaleKeyIsRefusedUnlessTheOperatorOverridesIt() {
        Facts f = new Facts();
        f.keyFreshness = KeyFreshness.stale(57, "offset 57");
        assertThat(ReplayCondition.failedFor(f.build())).containsExactly(ReplayRefusal.STALE_KEY);
        f.staleKeyOverridden = true;
        assertThat(ReplayCondition.failedFor(f.build())).isEmpty();
    }

    @Test
    void aCheckThatCouldNotAnswerIsRefusedUnlessTheOperatorOverridesIt() {
        Facts f = new Facts();
        f.keyFreshness = KeyFreshness.unknown("the broker did not answer within 10s");
        assertThat(ReplayCondition.failedFor(f.build())).containsExactly(ReplayRefusal.KEY_FRESHNESS_UNKNOWN);
        f.staleKeyOverridden = true;
        assertThat(ReplayCondition.failedFor(f.build())).isEmpty();
    }

    @Test
    void anOverrideDoesNotLiftAnyOtherCondition() {
        Facts f = breaking(ReplayCondition.SAME_VALUE_HASH);
        f.keyFreshness = KeyFreshness.stale(57, "offset 57");
        f.staleKeyOverridden = true;
        assertThat(ReplayCondition.failedFor(f.build())).containsExactly(ReplayRefusal.SOURCE_VALUE_HASH_MISMATCH);
    }

    @Test
    void onlyAStaleKeyNamesANewerOffset() {
        assertThatThrownBy(() -> new KeyFreshness(KeyFreshness.State.STALE, null, "x")).isInstanceOf(RuntimeException.class);
        assertThatThrownBy(() -> new KeyFreshness(KeyFreshness.State.FRESH, 3L, "x")).isInstanceOf(RuntimeException.class);
        assertThat(KeyFreshness.stale(0, "x").newerOffset()).isZero();
    }
}

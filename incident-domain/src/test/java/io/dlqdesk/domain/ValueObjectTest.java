package io.dlqdesk.domain;

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
import io.dlqdesk.domain.replay.PublishStatus;
import io.dlqdesk.domain.replay.ReplayPolicy;
import io.dlqdesk.domain.replay.SourceRecordFacts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.time.Instant;

import static io.dlqdesk.domain.Samples.NOW;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

/** The value objects refuse what they cannot stand for, at the exact bounds. */
class ValueObjectTest {

    private static final RecordLocation AT = new RecordLocation("orders", 3, 42L);

    @Test
    void aLocationAcceptsTheSmallestAndLargestLegalValues() {
        assertThat(new RecordLocation("a".repeat(249), 0, 0L).topic()).hasSize(249);
        assertThatIllegalArgumentException().isThrownBy(() -> new RecordLocation("a".repeat(250), 0, 0L));
        assertThatIllegalArgumentException().isThrownBy(() -> new RecordLocation("t", -1, 0L)).withMessageContaining("partition");
        assertThatIllegalArgumentException().isThrownBy(() -> new RecordLocation("t", 0, -1L)).withMessageContaining("offset");
    }

    @Test
    void aFailureKeyKnowsItsLocationAndIsBuiltFromOne() {
        FailureKey key = FailureKey.of(AT, "billing");
        assertThat(key).isEqualTo(new FailureKey("orders", 3, 42L, "billing"));
        assertThat(key.location()).isEqualTo(AT);
    }

    @Test
    void aPayloadHashIsTheSha256OfTheRawBytes() {
        // SHA-256("abc"), from FIPS 180-2
        assertThat(PayloadHash.of("abc".getBytes(StandardCharsets.US_ASCII)).hex())
                .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "abc", "BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD",
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015a", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015adx"})
    void aPayloadHashRefusesAnythingButSixtyFourLowerCaseHexDigits(String hex) {
        assertThatIllegalArgumentException().isThrownBy(() -> new PayloadHash(hex));
    }

    @Test
    void aTombstoneHasNoPayloadHash() {
        assertThatNullPointerException().isThrownBy(() -> PayloadHash.of(null)).withMessageContaining("tombstone");
    }

    @Test
    void aRecordKeyIsComparedByContentAndCannotBeChangedFromOutside() {
        byte[] bytes = {1, 2};
        RecordKey key = RecordKey.of(bytes);
        bytes[0] = 9;
        assertThat(key).isEqualTo(RecordKey.of(new byte[] {1, 2})).hasSameHashCodeAs(RecordKey.of(new byte[] {1, 2}));
        key.bytes()[1] = 9;
        assertThat(key.bytes()).containsExactly(1, 2);
        assertThat(key).isNotEqualTo(RecordKey.of(new byte[0])).isNotEqualTo(RecordKey.NONE).isNotEqualTo("key");
        assertThat(key).hasToString("RecordKey[0102]");
        assertThat(key.hashCode()).isEqualTo(java.util.Arrays.hashCode(new byte[] {1, 2})).isNotEqualTo(RecordKey.NONE.hashCode());
    }

    @Test
    void aMissingKeyIsNotAnEmptyKey() {
        assertThat(RecordKey.NONE.bytes()).isNull();
        assertThat(RecordKey.NONE).isEqualTo(RecordKey.of(null)).isNotEqualTo(RecordKey.of(new byte[0]));
        assertThat(RecordKey.NONE).hasToString("RecordKey[none]");
    }

    @Test
    void anEventIdIsBoundedAndPrintable() {
        assertThat(new EventId("e".repeat(EventId.MAX_LENGTH)).value()).hasSize(256);
        assertThatIllegalArgumentException().isThrownBy(() -> new EventId("e".repeat(EventId.MAX_LENGTH + 1)));
        assertThatIllegalArgumentException().isThrownBy(() -> new EventId(" "));
        assertThatIllegalArgumentException().isThrownBy(() -> new EventId("evt\u0000"));
        assertThatNullPointerException().isThrownBy(() -> new EventId(null));
    }

    @Test
    void anOriginalTimestampIsAKafkaTimestamp() {
        assertThat(OriginalTimestamp.ofEpochMilli(0, TimestampType.CREATE_TIME).instant()).isEqualTo(Instant.EPOCH);
        assertThatIllegalArgumentException().isThrownBy(() -> OriginalTimestamp.ofEpochMilli(-1, TimestampType.CREATE_TIME));
        assertThatIllegalArgumentException().isThrownBy(() -> new OriginalTimestamp(Instant.EPOCH.plusNanos(1), TimestampType.CREATE_TIME));
        assertThatNullPointerException().isThrownBy(() -> new OriginalTimestamp(Instant.EPOCH, null));
    }

    @Test
    void anExceptionSummaryIsBounded() {
        assertThat(new ExceptionSummary("c".repeat(ExceptionSummary.MAX_CLASS_LENGTH), "m".repeat(ExceptionSummary.MAX_MESSAGE_LENGTH)))
                .isNotNull();
        assertThat(new ExceptionSummary("c", null).message()).isNull();
        assertThatIllegalArgumentException().isThrownBy(() -> new ExceptionSummary("c".repeat(ExceptionSummary.MAX_CLASS_LENGTH + 1), null));
        assertThatIllegalArgumentException().isThrownBy(() -> new ExceptionSummary("c", "m".repeat(ExceptionSummary.MAX_MESSAGE_LENGTH + 1)));
        assertThatIllegalArgumentException().isThrownBy(() -> new ExceptionSummary(" ", null));
    }

    @Test
    void anOverLongMessageIsCutAndMarked() {
        String message = "m".repeat(ExceptionSummary.MAX_MESSAGE_LENGTH + 1);
        String cut = ExceptionSummary.truncating("c", message).message();
        assertThat(cut).hasSize(ExceptionSummary.MAX_MESSAGE_LENGTH).endsWith("…");
        assertThat(ExceptionSummary.truncating("c", "m".repeat(ExceptionSummary.MAX_MESSAGE_LENGTH)).message())
                .isEqualTo("m".repeat(ExceptionSummary.MAX_MESSAGE_LENGTH));
        assertThat(ExceptionSummary.truncating("c", null).message()).isNull();
    }

    @Test
    void aCutNeverSplitsASurrogatePair() {
        // the cut would fall between the two halves of the emoji
        String message = "m".repeat(ExceptionSummary.MAX_MESSAGE_LENGTH - 2) + "\uD83D\uDE00" + "tail";
        String cut = ExceptionSummary.truncating("c", message).message();
        assertThat(cut).isEqualTo("m".repeat(ExceptionSummary.MAX_MESSAGE_LENGTH - 2) + "…");
    }

    @Test
    void anOperatorActionNeedsWhoAndWhy() {
        assertThat(new OperatorAction("a".repeat(256), "r".repeat(2000), NOW)).isNotNull();
        assertThatIllegalArgumentException().isThrownBy(() -> new OperatorAction("a".repeat(257), "r", NOW));
        assertThatIllegalArgumentException().isThrownBy(() -> new OperatorAction("a", "r".repeat(2001), NOW));
        assertThatIllegalArgumentException().isThrownBy(() -> new OperatorAction(" ", "r", NOW)).withMessageContaining("principal");
        assertThatIllegalArgumentException().isThrownBy(() -> new OperatorAction("a", "", NOW)).withMessageContaining("reason");
        assertThatNullPointerException().isThrownBy(() -> new OperatorAction("a", "r", null));
    }

    @Test
    void aReplayPolicyAllowsOneToAHundredAttempts() {
        assertThat(new ReplayPolicy(true, 1).maxAttempts()).isEqualTo(1);
        assertThat(new ReplayPolicy(true, 100).maxAttempts()).isEqualTo(100);
        assertThatIllegalArgumentException().isThrownBy(() -> new ReplayPolicy(true, 0));
        assertThatIllegalArgumentException().isThrownBy(() -> new ReplayPolicy(true, 101));
    }

    @Test
    void aPublishResultIsEitherALocationOrAReason() {
        assertThat(PublishResult.published(AT, NOW).status()).isEqualTo(PublishStatus.PUBLISHED);
        assertThat(PublishResult.failed("r".repeat(2000), NOW).status()).isEqualTo(PublishStatus.PUBLISH_FAILED);
        assertThatNullPointerException().isThrownBy(() -> PublishResult.published(null, NOW));
        assertThatNullPointerException().isThrownBy(() -> PublishResult.failed(null, NOW));
        assertThatIllegalArgumentException().isThrownBy(() -> PublishResult.failed(" ", NOW));
        assertThatIllegalArgumentException().isThrownBy(() -> PublishResult.failed("r".repeat(2001), NOW));
        assertThatIllegalArgumentException().isThrownBy(() -> new PublishResult(PublishStatus.PUBLISHED, AT, "why", NOW));
        assertThatIllegalArgumentException().isThrownBy(() -> new PublishResult(PublishStatus.PUBLISH_FAILED, AT, "why", NOW));
    }

    @ParameterizedTest
    @EnumSource(value = PublishStatus.class, names = {"NONE", "REQUESTED", "PUBLISH_UNKNOWN"})
    void aPublishResultIsNeverAnIntermediateStatus(PublishStatus status) {
        assertThatIllegalArgumentException().isThrownBy(() -> new PublishResult(status, null, null, NOW));
    }

    @Test
    void sourceFactsAreConsistent() {
        PayloadHash hash = PayloadHash.of(new byte[] {1});
        assertThat(SourceRecordFacts.found(AT, 42, RecordKey.NONE, null, hash, null).found()).isTrue();
        assertThat(SourceRecordFacts.found(AT, 0, RecordKey.NONE, null, hash, null).returnedOffset()).isZero();
        assertThat(SourceRecordFacts.tombstone(AT, 42, RecordKey.NONE, null, null).tombstone()).isTrue();
        assertThat(SourceRecordFacts.notFound(AT).locationInRange()).isTrue();
        assertThat(SourceRecordFacts.outOfRange(AT).locationInRange()).isFalse();
        assertThatIllegalArgumentException().isThrownBy(() -> SourceRecordFacts.found(AT, -1, RecordKey.NONE, null, hash, null));
        assertThatIllegalArgumentException().isThrownBy(() -> SourceRecordFacts.found(AT, 42, RecordKey.NONE, null, null, null));
        assertThatIllegalArgumentException().isThrownBy(() -> new SourceRecordFacts(AT, true, true, 42, RecordKey.NONE, null, hash, true, null, null));
        assertThatNullPointerException().isThrownBy(() -> SourceRecordFacts.found(AT, 42, null, null, hash, null));
    }

    @Test
    void aRecordThatWasNotFoundCarriesNoFacts() {
        PayloadHash hash = PayloadHash.of(new byte[] {1});
        assertThatIllegalArgumentException().isThrownBy(() -> new SourceRecordFacts(AT, true, false, 0, null, null, null, false, null, null));
        assertThatIllegalArgumentException().isThrownBy(() -> new SourceRecordFacts(AT, true, false, -1, RecordKey.NONE, null, null, false, null, null));
        assertThatIllegalArgumentException().isThrownBy(() -> new SourceRecordFacts(AT, true, false, -1, null, new EventId("e"), null, false, null, null));
        assertThatIllegalArgumentException().isThrownBy(() -> new SourceRecordFacts(AT, true, false, -1, null, null, hash, false, null, null));
        assertThatIllegalArgumentException().isThrownBy(() -> new SourceRecordFacts(AT, true, false, -1, null, null, null, true, null, null));
    }

    @Test
    void aFailedRecordNeedsItsKeyAndLocations() {
        FailureKey key = FailureKey.of(AT, "g");
        assertThatNullPointerException().isThrownBy(() -> new FailedRecord(null, AT, RecordKey.NONE, null, null, null, null));
        assertThatNullPointerException().isThrownBy(() -> new FailedRecord(key, null, RecordKey.NONE, null, null, null, null));
        assertThatNullPointerException().isThrownBy(() -> new FailedRecord(key, AT, null, null, null, null, null));
        assertThat(new FailedRecord(key, AT, RecordKey.NONE, null, null, null, null).eventId()).isNull();
    }
}

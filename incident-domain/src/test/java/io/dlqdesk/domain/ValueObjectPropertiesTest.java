package io.dlqdesk.domain;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.record.BoundedText;
import io.dlqdesk.domain.record.EventId;
import io.dlqdesk.domain.record.ExceptionSummary;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.domain.record.OriginalTimestamp;
import io.dlqdesk.domain.record.PayloadHash;
import io.dlqdesk.domain.record.RecordKey;
import io.dlqdesk.domain.record.TimestampType;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.StringLength;

import java.security.MessageDigest;
import java.time.Instant;
import java.util.Arrays;
import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** Value objects over wide input: header text, hashes, timestamps, keys. */
class ValueObjectPropertiesTest {

    @Property
    void anEventIdIsAcceptedExactlyWhenNonBlankBoundedAndWithoutControlCharacters(@ForAll @StringLength(max = 300) String text) {
        boolean valid = !text.isBlank() && text.length() <= EventId.MAX_LENGTH && text.chars().noneMatch(Character::isISOControl);
        if (valid) {
            assertThat(new EventId(text).value()).isEqualTo(text);
        } else {
            assertThatIllegalArgumentException().isThrownBy(() -> new EventId(text));
        }
    }

    @Property
    void aTruncatedMessageIsABoundedPrefixOfTheOriginal(@ForAll @StringLength(max = 2100) String message) {
        String kept = ExceptionSummary.truncating("com.example.Failure", message).message();
        assertThat(kept.length()).isLessThanOrEqualTo(ExceptionSummary.MAX_MESSAGE_LENGTH);
        if (message.length() <= ExceptionSummary.MAX_MESSAGE_LENGTH) {
            assertThat(kept).isEqualTo(message);
        } else {
            String prefix = kept.substring(0, kept.length() - 1);
            assertThat(kept).endsWith("…");
            assertThat(message).startsWith(prefix);
            assertThat(prefix.isEmpty() || !Character.isHighSurrogate(prefix.charAt(prefix.length() - 1))).isTrue();
        }
    }

    @Property
    void aPayloadHashIsTheSha256OfExactlyTheGivenBytes(@ForAll byte[] value) throws Exception {
        String expected = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(value));
        assertThat(PayloadHash.of(value)).isEqualTo(new PayloadHash(expected));
    }

    @Property
    void keysAreEqualExactlyWhenTheirBytesAre(@ForAll byte[] a, @ForAll byte[] b) {
        assertThat(RecordKey.of(a).equals(RecordKey.of(b))).isEqualTo(Arrays.equals(a, b));
        if (Arrays.equals(a, b)) {
            assertThat(RecordKey.of(a).hashCode()).isEqualTo(RecordKey.of(b).hashCode());
        }
    }

    @Property
    void anyNonNegativeKafkaTimestampUpToTheLatestIsKeptToTheMillisecond(@ForAll @LongRange(min = 0, max = 253_370_764_799_999L) long millis) {
        assertThat(OriginalTimestamp.ofEpochMilli(millis, TimestampType.CREATE_TIME).instant()).isEqualTo(Instant.ofEpochMilli(millis));
    }

    /** The end of 9998: a replay deadline up to a year later is still a date MySQL's DATETIME holds. */
    @Property
    void aTimestampPastTheLatestIsRefused(@ForAll @LongRange(min = 253_370_764_800_000L, max = Long.MAX_VALUE / 1000) long millis) {
        assertThat(OriginalTimestamp.LATEST).isEqualTo(Instant.parse("9998-12-31T23:59:59.999Z"));
        assertThatIllegalArgumentException().isThrownBy(() -> OriginalTimestamp.ofEpochMilli(millis, TimestampType.CREATE_TIME));
    }

    @Property
    void aNegativeTimestampIsRefused(@ForAll @LongRange(min = Long.MIN_VALUE / 1000, max = -1) long millis) {
        assertThatIllegalArgumentException().isThrownBy(() -> OriginalTimestamp.ofEpochMilli(millis, TimestampType.LOG_APPEND_TIME));
    }

    @Provide
    Arbitrary<FailureKey> failureKeys() {
        Arbitrary<String> topics = Arbitraries.strings().withCharRange('a', 'z').withCharRange('A', 'Z').withCharRange('0', '9')
                .withChars('.', '_', '-').ofMinLength(1).ofMaxLength(249);
        return Combinators.combine(topics, Arbitraries.integers().greaterOrEqual(0), Arbitraries.longs().greaterOrEqual(0),
                Arbitraries.strings().ofMinLength(1).ofMaxLength(60)
                        .filter(group -> BoundedText.identifierProblem(group, FailureKey.MAX_GROUP_LENGTH) == null)).as(FailureKey::new);
    }

    @Property
    void everyDerivedIncidentIdParsesBackToItself(@ForAll("failureKeys") FailureKey key) {
        IncidentId id = IncidentId.of(key);
        assertThat(IncidentId.parse(id.value())).isEqualTo(id);
        assertThat(id.toString()).isEqualTo(id.value());
    }
}

package io.dlqdesk.domain;

import io.dlqdesk.domain.record.ExceptionSummary;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.domain.record.RecordKey;
import io.dlqdesk.domain.replay.ReplayHeaders;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** Every value from a DLQ record has a bound held here: identifiers whole or refused, free text cut with proof of the whole. */
class BoundedValuesTest {

    @Test
    void aGroupAsWideAsItsColumnIsKeptAndOneCharacterMoreIsRefusedNamingItsLength() {
        assertThat(new FailureKey("orders", 0, 0, "g".repeat(255)).consumerGroup()).hasSize(255);
        assertThatIllegalArgumentException().isThrownBy(() -> new FailureKey("orders", 0, 0, "g".repeat(256)))
                .withMessage("consumerGroup: 256 characters, longer than 255");
    }

    @ParameterizedTest
    @ValueSource(strings = {"bill\ning", "bill\ring", "billing\u0000", "\u001b[31mbilling", "billing\u0085"})
    void aGroupWithAControlCharacterIsRefusedNamingWhere(String group) {
        assertThatIllegalArgumentException().isThrownBy(() -> new FailureKey("orders", 0, 0, group))
                .withMessageStartingWith("consumerGroup: control character U+");
    }

    @ParameterizedTest
    @ValueSource(strings = {"billing", "billing-ü-日本", "a.b_c-d:e/f"})
    void aGroupOfPrintableCharactersIsKept(String group) {
        assertThat(new FailureKey("orders", 0, 0, group).consumerGroup()).isEqualTo(group);
    }

    @Test
    void replayHeadersUpToTheBoundAreKeptAndLongerOrControlCharactersAreRefused() {
        String widest = "x".repeat(ReplayHeaders.MAX_VALUE_LENGTH);
        assertThat(new ReplayHeaders(widest, widest, widest, widest).targetGroup()).isEqualTo(widest);
        assertThat(new ReplayHeaders(null, null, null, null).rootIncidentId()).isNull();
        assertThatIllegalArgumentException().isThrownBy(() -> new ReplayHeaders(widest + "x", null, null, null))
                .withMessageContaining(ReplayHeaders.ROOT_INCIDENT_ID).withMessageContaining("256 characters");
        assertThatIllegalArgumentException().isThrownBy(() -> new ReplayHeaders(null, "1\r\n", null, null))
                .withMessageContaining(ReplayHeaders.ATTEMPT).withMessageContaining("control");
    }

    @Test
    void aKeyOf64KiBIsKeptAndOneByteMoreIsRefused() {
        assertThat(RecordKey.of(new byte[RecordKey.MAX_BYTES]).bytes()).hasSize(65_536);
        assertThatIllegalArgumentException().isThrownBy(() -> RecordKey.of(new byte[RecordKey.MAX_BYTES + 1]))
                .withMessage("key: 65537 bytes, longer than 65536");
    }

    @Test
    void aMessageWithinItsBoundIsKeptWholeWithoutProof() {
        String message = "é".repeat(ExceptionSummary.MAX_MESSAGE_LENGTH);
        ExceptionSummary summary = ExceptionSummary.ofMessageBytes("x.Boom", message.getBytes(StandardCharsets.UTF_8));
        assertThat(summary.message()).isEqualTo(message);
        assertThat(summary.messageTruncated()).isFalse();
        assertThat(summary.originalMessageSha256()).isNull();
    }

    @Test
    void aTwoMiBMessageIsCutToItsBoundAndRecordsTheFullLengthAndHash() throws Exception {
        byte[] full = "m".repeat(2 * 1024 * 1024).getBytes(StandardCharsets.UTF_8);
        ExceptionSummary summary = ExceptionSummary.ofMessageBytes("x.Boom", full);
        assertThat(summary.message()).hasSize(ExceptionSummary.MAX_MESSAGE_LENGTH).endsWith("…");
        assertThat(summary.originalMessageBytes()).isEqualTo(2 * 1024 * 1024);
        assertThat(summary.originalMessageSha256()).isEqualTo(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(full)));
    }

    @Test
    void aCutNeverSplitsACharacterOfFourBytes() {
        byte[] full = "😀".repeat(ExceptionSummary.MAX_MESSAGE_LENGTH).getBytes(StandardCharsets.UTF_8);
        String message = ExceptionSummary.ofMessageBytes("x.Boom", full).message();
        assertThat(message.codePoints().limit(message.codePointCount(0, message.length()) - 1)).allMatch(c -> c == 0x1F600);
        assertThat(message.length()).isLessThanOrEqualTo(ExceptionSummary.MAX_MESSAGE_LENGTH);
    }

    @Test
    void aLengthWithoutItsHashIsRefused() {
        assertThatIllegalArgumentException().isThrownBy(() -> new ExceptionSummary("x.Boom", "m", 5, null));
    }
}

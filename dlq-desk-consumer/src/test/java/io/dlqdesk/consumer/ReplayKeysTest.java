package io.dlqdesk.consumer;

import org.apache.kafka.common.header.Headers;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.dlqdesk.consumer.TestReplays.SECRET_1;
import static io.dlqdesk.consumer.TestReplays.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ReplayKeysTest {

    /**
     * Computed apart from this code (Python's hmac over the encoding in ReplaySignature's Javadoc); replay-saga's
     * ReplayPublisherTest expects the same value from the desk.
     */
    @Test
    void theSignatureIsHmacSha256OverTheDocumentedEncoding() {
        Headers headers = TestReplays.headers(null, null);
        headers.remove(ReplayHeaderNames.ROOT_INCIDENT_ID);
        headers.remove(ReplayHeaderNames.ATTEMPT);
        headers.add(ReplayHeaderNames.ROOT_INCIDENT_ID, utf8("inc-0123456789abcdef0123456789abcdef"));
        headers.add(ReplayHeaderNames.ATTEMPT, utf8("2"));
        headers.add(ReplayHeaderNames.OWNER, utf8("desk-eu"));
        headers.add(ReplayHeaderNames.TARGET_GROUP, utf8("billing"));
        byte[] value = {(byte) 0xFF, 0x00, (byte) 0x80};

        assertThat(TestReplays.KEY_1.sign("k1", "orders", 4, new byte[] {7}, value, headers))
                .isEqualTo("v1:k1:-hnVpfjHv449buMDHhQVpNN8gFfJ8bxj1R4x7j7kwQ0");
        assertThat(TestReplays.KEY_1.sign("k1", "orders", 4, null, value, headers))
                .as("a null key is not an empty one").isEqualTo("v1:k1:FmVenrfd-X4JLiDacobH72dnW6GNYO68e0mdFLjhl9E");
    }

    @Test
    void aSecretShorterThan32BytesIsRefusedWithoutShowingIt() {
        String short31 = "s".repeat(31);
        assertThatThrownBy(() -> ReplayKeys.of("k1", short31))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'k1'").hasMessageContaining("31 bytes").hasMessageContaining("at least 32")
                .hasMessageNotContaining(short31);
        assertThatThrownBy(() -> ReplayKeys.of(Map.of("k1", ""))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aSecretOf32BytesIsAccepted() {
        assertThat(ReplayKeys.of("k1", "s".repeat(32)).ids()).containsExactly("k1");
    }

    @Test
    void aKeyIdMustBeShortAndPlain() {
        assertThatThrownBy(() -> ReplayKeys.of("k:1", SECRET_1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ReplayKeys.of("", SECRET_1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ReplayKeys.of("k".repeat(65), SECRET_1)).isInstanceOf(IllegalArgumentException.class);
        assertThat(ReplayKeys.of("prod-2026.12_a", SECRET_1).holds("prod-2026.12_a")).isTrue();
    }

    @Test
    void noSecretIsShownByToString() {
        ReplayKeys keys = ReplayKeys.of(Map.of("k1", SECRET_1, "k2", TestReplays.SECRET_2));

        assertThat(keys.toString()).contains("k1", "k2").doesNotContain(SECRET_1, TestReplays.SECRET_2);
        assertThat(TargetGroupFilter.forGroup("shipping", keys).toString()).doesNotContain(SECRET_1);
    }

    @Test
    void signingUnderAKeyNotHeldIsRefused() {
        assertThatThrownBy(() -> TestReplays.KEY_1.sign("k2", "orders", 0, null, null, TestReplays.headers("billing", null)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("k2");
        assertThat(ReplayKeys.none().isEmpty()).isTrue();
        assertThat(ReplayKeys.of(Map.of())).isSameAs(ReplayKeys.none());
    }
}

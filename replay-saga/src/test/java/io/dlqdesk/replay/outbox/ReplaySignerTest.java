package io.dlqdesk.replay.outbox;

import io.dlqdesk.domain.replay.ReplayHeaders;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ReplaySignerTest {

    private static final String SECRET = "an-example-secret-of-at-least-32-bytes";

    @Test
    void aSecretShorterThan32BytesIsRefusedWithoutShowingIt() {
        String short31 = "s".repeat(31);
        assertThatThrownBy(() -> ReplaySigner.of("k1", short31))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'k1'").hasMessageContaining("31 bytes").hasMessageContaining("at least 32")
                .hasMessageNotContaining(short31);
        assertThatThrownBy(() -> ReplaySigner.of("k1", null)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aSecretOf32BytesIsAccepted() {
        assertThat(ReplaySigner.of("k1", "s".repeat(32)).signs()).isTrue();
    }

    @Test
    void aKeyIdMustBeShortAndPlain() {
        // ':' separates the key id from the mac in the header value
        assertThatThrownBy(() -> ReplaySigner.of("k:1", SECRET)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ReplaySigner.of("", SECRET)).isInstanceOf(IllegalArgumentException.class);
        assertThat(ReplaySigner.of("prod-2026.12_a", SECRET).keyId()).contains("prod-2026.12_a");
    }

    @Test
    void theSecretIsNeverShown() {
        assertThat(ReplaySigner.of("k1", SECRET).toString()).contains("k1").doesNotContain(SECRET);
    }

    @Test
    void eachHeaderAndTheRecordAreSignedAndTheFieldsCannotBeShiftedIntoEachOther() {
        ReplaySigner signer = ReplaySigner.of("k1", SECRET);
        RecordHeaders ab = headers("ab", "c");
        RecordHeaders a = headers("a", "bc");

        assertThat(signer.signature("orders", 0, null, new byte[0], ab)).isNotEqualTo(signer.signature("orders", 0, null, new byte[0], a));
        assertThat(signer.signature("orders", 0, null, null, ab)).as("a null value is not an empty one")
                .isNotEqualTo(signer.signature("orders", 0, null, new byte[0], ab));
        assertThat(signer.signature("orders", 0, null, null, ab)).isEqualTo(signer.signature("orders", 0, null, null, headers("ab", "c")));
    }

    @Test
    void theUnsignedSignerSignsNothing() {
        assertThat(ReplaySigner.unsigned().signs()).isFalse();
        assertThat(ReplaySigner.unsigned().signature("orders", 0, null, null, headers("g", "o"))).isEmpty();
    }

    private static RecordHeaders headers(String targetGroup, String owner) {
        RecordHeaders headers = new RecordHeaders();
        headers.add(ReplayHeaders.TARGET_GROUP, targetGroup.getBytes(StandardCharsets.UTF_8));
        headers.add(ReplayHeaders.OWNER, owner.getBytes(StandardCharsets.UTF_8));
        return headers;
    }
}

package io.dlqdesk.notifications.delivery;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class WebhookSignatureTest {

    /** Computed with openssl: printf '1764504000.{"a":1}' | openssl dgst -sha256 -hmac key */
    @Test
    void signsTheTimestampADotAndTheBodyWithHmacSha256() {
        assertThat(WebhookSignature.sign("key", 1_764_504_000L, "{\"a\":1}".getBytes(StandardCharsets.UTF_8)))
                .isEqualTo("sha256=bc865bf77968d15592af81ddd712f2e15491619fadc965fd5d3d4b7820244885");
    }

    @Test
    void anotherTimestampOrBodyGivesAnotherSignature() {
        byte[] body = "{\"a\":1}".getBytes(StandardCharsets.UTF_8);
        String signature = WebhookSignature.sign("key", 1_764_504_000L, body);
        assertThat(WebhookSignature.sign("key", 1_764_504_001L, body)).isNotEqualTo(signature);
        assertThat(WebhookSignature.sign("key", 1_764_504_000L, "{\"a\":2}".getBytes(StandardCharsets.UTF_8))).isNotEqualTo(signature);
        assertThat(WebhookSignature.sign("other", 1_764_504_000L, body)).isNotEqualTo(signature);
    }
}

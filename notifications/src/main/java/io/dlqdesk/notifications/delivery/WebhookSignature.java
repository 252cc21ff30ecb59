package io.dlqdesk.notifications.delivery;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HexFormat;

/**
 * The signature of a delivery: {@code sha256=} + hex HMAC-SHA256, keyed with the receiver's secret, over the
 * timestamp header's value, a dot, and the body's bytes. The timestamp is signed so a receiver can refuse an old
 * delivery replayed at it; the body is signed as sent, byte for byte.
 */
public final class WebhookSignature {

    public static final String SIGNATURE_HEADER = "X-DlqDesk-Signature";
    public static final String TIMESTAMP_HEADER = "X-DlqDesk-Timestamp";
    private static final String ALGORITHM = "HmacSHA256";

    private WebhookSignature() {
    }

    public static String sign(String secret, long epochSeconds, byte[] body) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), ALGORITHM));
            mac.update((epochSeconds + ".").getBytes(StandardCharsets.US_ASCII));
            return "sha256=" + HexFormat.of().formatHex(mac.doFinal(body));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every Java runtime provides " + ALGORITHM, e);
        }
    }
}

package io.dlqdesk.replay.outbox;

import io.dlqdesk.domain.replay.ReplayHeaders;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Optional;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Signs a replay's correlation headers to the record they travel on, so that consumers
 * (dlq-desk-consumer) skip a replay for another group only when the desk made it: the header
 * {@value ReplayHeaders#SIGNATURE} is {@code v1:<key id>:<mac>}, the mac HMAC-SHA256 (base64url, no
 * padding) over these fields, each a 4-byte big-endian length and its bytes (length -1 for an absent one):
 * the text {@code dlq-incident-signature.v1}, the key id, the last value of the target-group, owner, root
 * and attempt headers, the topic, the partition (4 bytes), SHA-256 of the key and of the value.
 * <p>
 * The consumer library has the other copy of this format (it depends on nothing of ours);
 * the app's SignedReplayHeadersTest keeps the two equal. One key signs: the active one; the consumers
 * hold every key still in use, which is how a key is rotated. Immutable and thread-safe.
 */
public final class ReplaySigner {

    public static final int MIN_SECRET_BYTES = 32;
    private static final Pattern KEY_ID = Pattern.compile("[A-Za-z0-9._-]{1,64}");
    private static final byte[] DOMAIN = "dlq-incident-signature.v1".getBytes(StandardCharsets.US_ASCII);
    private static final ReplaySigner UNSIGNED = new ReplaySigner(null, null);

    private final String keyId;
    private final SecretKeySpec secret;

    private ReplaySigner(String keyId, SecretKeySpec secret) {
        this.keyId = keyId;
        this.secret = secret;
    }

    /** Adds no signature: every consumer group processes such a replay. */
    public static ReplaySigner unsigned() {
        return UNSIGNED;
    }

    /**
     * @param secret used as its UTF-8 bytes
     * @throws IllegalArgumentException for a malformed key id or a secret under {@value #MIN_SECRET_BYTES} bytes (the message
     *                                  names the key id, never the secret)
     */
    public static ReplaySigner of(String keyId, String secret) {
        if (keyId == null || !KEY_ID.matcher(keyId).matches()) {
            throw new IllegalArgumentException("a replay signing key id must be 1 to 64 of A-Z a-z 0-9 . _ -, not '" + keyId + "'");
        }
        byte[] bytes = secret == null ? new byte[0] : secret.getBytes(StandardCharsets.UTF_8);
        if (bytes.length < MIN_SECRET_BYTES) {
            throw new IllegalArgumentException("the replay signing secret of key '" + keyId + "' is " + bytes.length
                    + " bytes long; at least " + MIN_SECRET_BYTES + " are needed (e.g. openssl rand -base64 48)");
        }
        return new ReplaySigner(keyId, new SecretKeySpec(bytes, "HmacSHA256"));
    }

    public boolean signs() {
        return secret != null;
    }

    /** The active key id; empty when unsigned. */
    public Optional<String> keyId() {
        return Optional.ofNullable(keyId);
    }

    /** The signature header value for a record with these correlation headers; empty when unsigned. */
    public Optional<String> signature(String topic, int partition, byte[] key, byte[] value, Headers headers) {
        if (secret == null) {
            return Optional.empty();
        }
        ByteArrayOutputStream message = new ByteArrayOutputStream(256);
        field(message, DOMAIN);
        field(message, keyId.getBytes(StandardCharsets.UTF_8));
        field(message, last(headers, ReplayHeaders.TARGET_GROUP));
        field(message, last(headers, ReplayHeaders.OWNER));
        field(message, last(headers, ReplayHeaders.ROOT_INCIDENT_ID));
        field(message, last(headers, ReplayHeaders.ATTEMPT));
        field(message, topic.getBytes(StandardCharsets.UTF_8));
        field(message, ByteBuffer.allocate(4).putInt(partition).array());
        field(message, sha256(key));
        field(message, sha256(value));
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(secret);
            return Optional.of("v1:" + keyId + ":" + Base64.getUrlEncoder().withoutPadding().encodeToString(mac.doFinal(message.toByteArray())));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every Java runtime", e);
        }
    }

    private static byte[] last(Headers headers, String name) {
        Header header = headers.lastHeader(name);
        return header == null ? null : header.value();
    }

    private static void field(ByteArrayOutputStream message, byte[] bytes) {
        message.writeBytes(ByteBuffer.allocate(4).putInt(bytes == null ? -1 : bytes.length).array());
        if (bytes != null) {
            message.writeBytes(bytes);
        }
    }

    private static byte[] sha256(byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }

    @Override
    public String toString() {
        return secret == null ? "ReplaySigner[unsigned]" : "ReplaySigner[key " + keyId + "]";
    }
}

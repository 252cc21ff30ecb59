package io.dlqdesk.consumer;

import org.apache.kafka.common.header.Headers;

import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The keys a consumer accepts the desk's replay signatures under: key id → shared secret, the same
 * as the desk's {@code dlqdesk.replay.signing.keys}. To rotate, add the new key here first, then make it
 * the desk's active key, then remove the old one here once no replay signed with it is left unconsumed.
 * <p>
 * A secret is used as its UTF-8 bytes and must be at least {@value #MIN_SECRET_BYTES} bytes long (e.g.
 * {@code openssl rand -base64 48}); a key id is 1 to 64 of {@code A-Z a-z 0-9 . _ -}. {@link #none()}
 * verifies nothing, so a filter with it skips nothing. Secrets are never shown by {@link #toString()}.
 * Immutable and thread-safe.
 */
public final class ReplayKeys {

    public static final int MIN_SECRET_BYTES = 32;
    private static final Pattern KEY_ID = Pattern.compile("[A-Za-z0-9._-]{1,64}");
    private static final ReplayKeys NONE = new ReplayKeys(Map.of());

    private final Map<String, SecretKeySpec> secrets;

    private ReplayKeys(Map<String, SecretKeySpec> secrets) {
        this.secrets = secrets;
    }

    /** No key: no signature verifies, every replay is kept. */
    public static ReplayKeys none() {
        return NONE;
    }

    public static ReplayKeys of(String keyId, String secret) {
        return of(Map.of(keyId, secret));
    }

    /**
     * @param secrets key id → secret (used as its UTF-8 bytes)
     * @throws IllegalArgumentException for a malformed key id or a secret shorter than {@value #MIN_SECRET_BYTES} bytes;
     *                                  the message names the key id, never the secret
     */
    public static ReplayKeys of(Map<String, String> secrets) {
        Objects.requireNonNull(secrets, "secrets");
        Map<String, SecretKeySpec> keys = new TreeMap<>();
        secrets.forEach((id, secret) -> keys.put(requireKeyId(id), new SecretKeySpec(requireSecret(id, secret), "HmacSHA256")));
        return keys.isEmpty() ? NONE : new ReplayKeys(Map.copyOf(keys));
    }

    public boolean isEmpty() {
        return secrets.isEmpty();
    }

    public Set<String> ids() {
        return new TreeSet<>(secrets.keySet());
    }

    public boolean holds(String keyId) {
        return keyId != null && secrets.containsKey(keyId);
    }

    /**
     * The {@value ReplayHeaderNames#SIGNATURE} value for a record with these headers (its last target-group,
     * owner, root and attempt values), as the desk computes it; for tests and tools that publish replays.
     */
    public String sign(String keyId, String topic, int partition, byte[] key, byte[] value, Headers headers) {
        SecretKeySpec secret = secrets.get(keyId);
        if (secret == null) {
            throw new IllegalArgumentException("no replay signing key with id '" + keyId + "'; held: " + ids());
        }
        return ReplaySignature.headerValue(keyId, ReplaySignature.mac(secret, keyId, headers, topic, partition, key, value));
    }

    /** Whether the record's signature header was made with a key held here over exactly these fields. */
    boolean verifies(ReplaySignature.Parsed signature, Headers headers, String topic, int partition, byte[] key, byte[] value) {
        SecretKeySpec secret = secrets.get(signature.keyId());
        // isEqual takes the same time wherever the first difference is
        return secret != null && MessageDigest.isEqual(signature.mac(),
                ReplaySignature.mac(secret, signature.keyId(), headers, topic, partition, key, value));
    }

    static boolean validKeyId(String keyId) {
        return keyId != null && KEY_ID.matcher(keyId).matches();
    }

    private static String requireKeyId(String keyId) {
        if (!validKeyId(keyId)) {
            throw new IllegalArgumentException("a replay signing key id must be 1 to 64 of A-Z a-z 0-9 . _ -, not '" + keyId + "'");
        }
        return keyId;
    }

    private static byte[] requireSecret(String keyId, String secret) {
        byte[] bytes = secret == null ? new byte[0] : secret.getBytes(StandardCharsets.UTF_8);
        if (bytes.length < MIN_SECRET_BYTES) {
            throw new IllegalArgumentException("the replay signing secret of key '" + keyId + "' is " + bytes.length
                    + " bytes long; at least " + MIN_SECRET_BYTES + " are needed (e.g. openssl rand -base64 48)");
        }
        return bytes;
    }

    @Override
    public String toString() {
        return "ReplayKeys" + ids();
    }
}

package io.dlqdesk.domain.record;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** SHA-256 for the incident id and the payload hash. */
public final class Sha256 {

    private Sha256() {
    }

    public static byte[] digest(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime provides SHA-256", e);
        }
    }
}

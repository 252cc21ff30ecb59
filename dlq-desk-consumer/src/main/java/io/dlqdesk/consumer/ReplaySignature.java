package io.dlqdesk.consumer;

import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Optional;

/**
 * The signature format, version 1. The header value is {@code v1:<key id>:<mac>}, the mac being
 * HMAC-SHA256, base64url without padding, over these fields, each written as a 4-byte big-endian
 * length and its bytes (a length of -1 and no bytes for an absent one), in this order:
 * <ol>
 *   <li>the ASCII text {@code dlq-incident-signature.v1};</li>
 *   <li>the key id (UTF-8);</li>
 *   <li>the last value of each of {@value ReplayHeaderNames#TARGET_GROUP}, {@value ReplayHeaderNames#OWNER},
 *       {@value ReplayHeaderNames#ROOT_INCIDENT_ID} and {@value ReplayHeaderNames#ATTEMPT}, as its bytes;</li>
 *   <li>the topic (UTF-8), the partition (4 bytes, big-endian);</li>
 *   <li>SHA-256 of the key bytes, SHA-256 of the value bytes (absent for a null key or value).</li>
 * </ol>
 * Length prefixes make the encoding unambiguous ("ab"+"c" is not "a"+"bc"); the topic, partition, key and
 * value tie the headers to one record, so they cannot be copied onto another one. The desk has its own copy
 * of this (replay-saga's ReplaySigner); the app's SignedReplayHeadersTest keeps the two equal.
 */
final class ReplaySignature {

    static final String VERSION = "v1";
    private static final byte[] DOMAIN = "dlq-incident-signature.v1".getBytes(StandardCharsets.US_ASCII);
    private static final int MAC_BYTES = 32;

    private ReplaySignature() {
    }

    /** A parsed header value; the mac still to be checked. */
    record Parsed(String keyId, byte[] mac) {
    }

    static String headerValue(String keyId, byte[] mac) {
        return VERSION + ":" + keyId + ":" + Base64.getUrlEncoder().withoutPadding().encodeToString(mac);
    }

    /** Empty for anything that is not a well-formed v1 value. */
    static Optional<Parsed> parse(byte[] headerValue) {
        if (headerValue == null || headerValue.length > 200) {
            return Optional.empty();
        }
        String[] parts = new String(headerValue, StandardCharsets.US_ASCII).split(":", -1);
        if (parts.length != 3 || !parts[0].equals(VERSION) || !ReplayKeys.validKeyId(parts[1])) {
            return Optional.empty();
        }
        try {
            byte[] mac = Base64.getUrlDecoder().decode(parts[2]);
            return mac.length == MAC_BYTES ? Optional.of(new Parsed(parts[1], mac)) : Optional.empty();
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    static byte[] mac(SecretKeySpec secret, String keyId, Headers headers, String topic, int partition, byte[] key, byte[] value) {
        ByteArrayOutputStream message = new ByteArrayOutputStream(256);
        field(message, DOMAIN);
        field(message, keyId.getBytes(StandardCharsets.UTF_8));
        field(message, last(headers, ReplayHeaderNames.TARGET_GROUP));
        field(message, last(headers, ReplayHeaderNames.OWNER));
        field(message, last(headers, ReplayHeaderNames.ROOT_INCIDENT_ID));
        field(message, last(headers, ReplayHeaderNames.ATTEMPT));
        field(message, topic.getBytes(StandardCharsets.UTF_8));
        field(message, ByteBuffer.allocate(4).putInt(partition).array());
        field(message, sha256(key));
        field(message, sha256(value));
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(secret);
            return mac.doFinal(message.toByteArray());
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
}

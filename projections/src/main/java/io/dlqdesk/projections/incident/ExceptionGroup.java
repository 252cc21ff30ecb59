package io.dlqdesk.projections.incident;

import io.dlqdesk.domain.record.BoundedText;
import io.dlqdesk.domain.record.ExceptionSummary;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * Failures that are "the same problem": the exception class plus its message with the parts that
 * vary per record (ids, numbers, quoted values) replaced by placeholders, so "no price for order
 * 4711" and "no price for order 4712" land in one group. {@code id} is a short stable hash of both.
 */
public record ExceptionGroup(String id, String exceptionClass, String fingerprint) {

    static final String UNKNOWN_CLASS = "(unknown)";
    public static final int MAX_FINGERPRINT = 500;
    private static final Pattern UUID = Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
    private static final Pattern QUOTED = Pattern.compile("'[^']*'|\"[^\"]*\"");
    private static final Pattern HEX = Pattern.compile("\\b(?:0x)?[0-9a-fA-F]*[0-9][0-9a-fA-F]*[a-fA-F][0-9a-fA-F]*\\b|\\b(?:0x)?[0-9a-fA-F]*[a-fA-F][0-9a-fA-F]*[0-9][0-9a-fA-F]*\\b");
    private static final Pattern NUMBER = Pattern.compile("(?:(?<!\\w)-)?\\d+(?:[.,]\\d+)*");
    private static final Pattern SPACE = Pattern.compile("\\s+");
    public static final Pattern ID_FORMAT = Pattern.compile("[0-9a-f]{16}");

    /** The group of a failure; one without an exception summary is in the "(unknown)" group. */
    public static ExceptionGroup of(ExceptionSummary exception) {
        String exceptionClass = exception == null ? UNKNOWN_CLASS : exception.exceptionClass();
        String message = exception == null || exception.message() == null ? "" : exception.message();
        String fingerprint = normalise(message);
        return new ExceptionGroup(hash(exceptionClass + '\0' + fingerprint), exceptionClass, fingerprint);
    }

    static String normalise(String message) {
        String text = UUID.matcher(message).replaceAll("<uuid>");
        text = QUOTED.matcher(text).replaceAll("<value>");
        text = HEX.matcher(text).replaceAll("<hex>");
        text = NUMBER.matcher(text).replaceAll("<n>");
        text = SPACE.matcher(text).replaceAll(" ").strip();
        return BoundedText.prefix(text, MAX_FINGERPRINT); // unmarked, as always (the id hashes it), never half a surrogate pair
    }

    private static String hash(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime provides SHA-256", e);
        }
    }
}

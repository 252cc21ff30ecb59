package io.dlqdesk.domain.record;

import io.dlqdesk.domain.InvalidValueException;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Objects;

/**
 * Why the consumer failed, bounded so that one huge message cannot bloat every event that carries
 * it. {@code message} is null when the exception had none (Spring then omits the header). When the
 * message was cut to its bound, {@code originalMessageBytes} and {@code originalMessageSha256} say
 * how long the full message was (UTF-8 bytes) and prove which one it was; both are null when the
 * message is kept whole (and in events stored before they existed).
 */
public record ExceptionSummary(String exceptionClass, String message, Integer originalMessageBytes, String originalMessageSha256) {

    public static final int MAX_CLASS_LENGTH = 512;
    public static final int MAX_MESSAGE_LENGTH = 2000;
    static final String TRUNCATION_MARK = BoundedText.TRUNCATION_MARK;
    // enough bytes for any text that survives the bound (<= 3 bytes per char + 1 to trigger the mark)
    private static final int MAX_MESSAGE_BYTES_DECODED = 3 * MAX_MESSAGE_LENGTH + 3;

    public ExceptionSummary {
        Objects.requireNonNull(exceptionClass, "exceptionClass");
        if (exceptionClass.isBlank()) {
            throw new InvalidValueException("exceptionClass must not be blank");
        }
        if (exceptionClass.length() > MAX_CLASS_LENGTH) {
            throw new InvalidValueException("exceptionClass longer than " + MAX_CLASS_LENGTH + " characters");
        }
        if (message != null && message.length() > MAX_MESSAGE_LENGTH) {
            throw new InvalidValueException("message longer than " + MAX_MESSAGE_LENGTH + " characters");
        }
        if ((originalMessageBytes == null) != (originalMessageSha256 == null)) {
            throw new InvalidValueException("a cut message records both its original length and its SHA-256, or neither");
        }
        if (originalMessageSha256 != null && !originalMessageSha256.matches("[0-9a-f]{64}")) {
            throw new InvalidValueException("originalMessageSha256 is not a SHA-256 in lower-case hex");
        }
    }

    /** A summary whose message (if any) is whole. */
    public ExceptionSummary(String exceptionClass, String message) {
        this(exceptionClass, message, null, null);
    }

    /** Cuts an over-long message (on a code-point boundary) and marks the cut; the class is kept as is. */
    public static ExceptionSummary truncating(String exceptionClass, String message) {
        if (message == null || message.length() <= MAX_MESSAGE_LENGTH) {
            return new ExceptionSummary(exceptionClass, message);
        }
        return ofMessageBytes(exceptionClass, message.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The message from its UTF-8 bytes (undecodable bytes become U+FFFD), kept up to its bound; a cut message records the
     * full bytes' length and SHA-256. Only the bytes that can survive the bound are decoded.
     */
    public static ExceptionSummary ofMessageBytes(String exceptionClass, byte[] messageBytes) {
        if (messageBytes == null) {
            return new ExceptionSummary(exceptionClass, null);
        }
        String decoded = new String(messageBytes, 0, Math.min(messageBytes.length, MAX_MESSAGE_BYTES_DECODED), StandardCharsets.UTF_8);
        if (decoded.length() <= MAX_MESSAGE_LENGTH && messageBytes.length <= MAX_MESSAGE_BYTES_DECODED) {
            return new ExceptionSummary(exceptionClass, decoded);
        }
        return new ExceptionSummary(exceptionClass, BoundedText.truncate(decoded, MAX_MESSAGE_LENGTH), messageBytes.length,
                HexFormat.of().formatHex(Sha256.digest(messageBytes)));
    }

    /** Whether the message was cut to its bound. */
    public boolean messageTruncated() {
        return originalMessageBytes != null;
    }
}

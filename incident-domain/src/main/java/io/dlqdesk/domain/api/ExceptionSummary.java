package io.dlqdesk.domain.api;

import java.util.Objects;

/**
 * Why the consumer failed, bounded so that one huge message cannot bloat every event that carries
 * it. {@code message} is null when the exception had none (Spring then omits the header).
 */
public record ExceptionSummary(String exceptionClass, String message) {

    public static final int MAX_CLASS_LENGTH = 512;
    public static final int MAX_MESSAGE_LENGTH = 2000;
    static final String TRUNCATION_MARK = "…";

    public ExceptionSummary {
        Objects.requireNonNull(exceptionClass, "exceptionClass");
        if (exceptionClass.isBlank()) {
            throw new IllegalArgumentException("exceptionClass must not be blank");
        }
        if (exceptionClass.length() > MAX_CLASS_LENGTH) {
            throw new IllegalArgumentException("exceptionClass longer than " + MAX_CLASS_LENGTH + " characters");
        }
        if (message != null && message.length() > MAX_MESSAGE_LENGTH) {
            throw new IllegalArgumentException("message longer than " + MAX_MESSAGE_LENGTH + " characters");
        }
    }

    /** Cuts an over-long message (on a code-point boundary) and marks the cut; the class is kept as is. */
    public static ExceptionSummary truncating(String exceptionClass, String message) {
        if (message == null || message.length() <= MAX_MESSAGE_LENGTH) {
            return new ExceptionSummary(exceptionClass, message);
        }
        int end = MAX_MESSAGE_LENGTH - TRUNCATION_MARK.length();
        if (Character.isLowSurrogate(message.charAt(end))) {
            end--; // never split a surrogate pair
        }
        return new ExceptionSummary(exceptionClass, message.substring(0, end) + TRUNCATION_MARK);
    }
}

package io.dlqdesk.domain;

/**
 * A value from outside broke a rule the desk holds for it (a bound, a format, a combination): the caller's to fix, and
 * the only illegal argument the front doors answer as bad input. Any other is a fault of ours.
 */
public class InvalidValueException extends IllegalArgumentException {

    public InvalidValueException(String message) {
        super(message);
    }

    public InvalidValueException(String message, Throwable cause) {
        super(message, cause);
    }
}

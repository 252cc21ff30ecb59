package io.dlqdesk.record;

/** A header that makes the record untrustworthy; its message is the quarantine reason. */
public final class BadHeaderException extends Exception {

    public BadHeaderException(String header, String problem) {
        super(header + ": " + problem, null, false, false); // expected outcome: no stack trace needed
    }
}

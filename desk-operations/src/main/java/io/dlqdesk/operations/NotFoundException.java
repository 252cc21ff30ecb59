package io.dlqdesk.operations;

/** The thing named in the request does not exist (404). */
public class NotFoundException extends RuntimeException {

    public NotFoundException(String message) {
        super(message);
    }
}

package io.dlqdesk.operations;

import org.slf4j.Logger;

import java.util.concurrent.ThreadLocalRandom;

/**
 * A fault of ours met while answering a request: logged once with its stack trace under a short id, and the caller told
 * only the id, which finds the log line (the cause may name internals a caller must not see).
 */
public final class UnexpectedFailure {

    private UnexpectedFailure() {
    }

    /** Logs {@code failure} at ERROR under a new id and returns the id. */
    public static String logged(Logger log, String what, Throwable failure) {
        String id = String.format("%08x", ThreadLocalRandom.current().nextInt());
        log.error("{} failed (error {})", what, id, failure);
        return id;
    }

    /** What a caller is told. */
    public static String detail(String id) {
        return "an error of the service, not of your request (error " + id + "; the cause is in the service log)";
    }
}

package io.dlqdesk.parked;

/**
 * The batch failed as a whole and is run again after the processor's back-off; nothing is parked for it. Thrown for a
 * failure that is not the event's own (the database or the broker is away), and by a handler that only learns at the end
 * of a batch that one of its events failed (it marks the culprits, so that the next run handles each of them alone).
 */
public class RetryBatch extends RuntimeException {

    public RetryBatch(String message, Throwable cause) {
        super(message, cause);
    }
}

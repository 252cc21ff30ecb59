package io.dlqdesk.parked;

/** No parked event has this id (it was applied by a retry, evicted, or never existed). */
public class ParkedEventNotFoundException extends RuntimeException {

    public ParkedEventNotFoundException(String id) {
        super("no parked event " + id + " (it may have been applied by a retry or evicted)");
    }
}

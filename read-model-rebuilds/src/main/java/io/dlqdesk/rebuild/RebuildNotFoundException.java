package io.dlqdesk.rebuild;

/** No rebuild has this id: a 404. */
public class RebuildNotFoundException extends RuntimeException {

    public RebuildNotFoundException(String id) {
        super("no rebuild " + id);
    }
}

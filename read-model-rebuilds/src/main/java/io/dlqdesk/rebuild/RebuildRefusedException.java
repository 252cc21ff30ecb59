package io.dlqdesk.rebuild;

/** A rebuild cannot start or be cancelled in the state it is in (one already runs, or it is swapping or has ended): a 409. */
public class RebuildRefusedException extends RuntimeException {

    public RebuildRefusedException(String message) {
        super(message);
    }
}

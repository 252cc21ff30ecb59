package io.dlqdesk.rebuild;

/** Thrown inside a run when its row says it no longer runs: cancelled, or failed by another instance's recovery. */
final class RebuildCancelled extends RuntimeException {

    RebuildCancelled(String message) {
        super(message, null, false, false);
    }
}

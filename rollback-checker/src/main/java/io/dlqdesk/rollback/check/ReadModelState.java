package io.dlqdesk.rollback.check;

/**
 * How far the rollback-facts read model had read when an observation stopped waiting for it.
 *
 * @param head     the event store's newest global index when the wait began; -1 for an empty event store
 * @param position the lowest position any segment of the read model has processed; null when it has no tokens
 * @param caughtUp whether the read model had reached {@code head}
 */
record ReadModelState(long head, Long position, boolean caughtUp) {
}

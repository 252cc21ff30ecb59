package io.dlqdesk.parked;

import org.axonframework.messaging.unitofwork.UnitOfWork;

import java.util.Collection;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The events a batch named when it failed as a whole (a write or a send that fails only after every handler returned), to
 * be handled alone when the batch runs again: then the one that cannot be handled fails its own handler, and Axon's
 * dead-letter queue parks it instead of the batch failing for ever. Kept in memory on this instance, bounded.
 */
public final class Culprits {

    // a failed batch holds at most a processor's batch of events; more culprits than this are stale ones
    private static final int MAX = 10_000;

    private final Set<String> eventIds = ConcurrentHashMap.newKeySet();

    /** Names the events of a batch that failed: each is handled alone next time. */
    public void mark(Collection<String> failed) {
        if (eventIds.size() + failed.size() > MAX) {
            eventIds.clear();
        }
        eventIds.addAll(failed);
    }

    public boolean isMarked(String eventId) {
        return eventIds.contains(eventId);
    }

    /** Forgets {@code eventId} once {@code batch}, which handled it alone, commits. */
    public void forgetOnCommit(String eventId, UnitOfWork<?> batch) {
        batch.afterCommit(unitOfWork -> eventIds.remove(eventId));
    }
}

package io.dlqdesk.parked;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How often each event failed in a processing group on this instance, so that it is parked only after a bounded number
 * of attempts. Bounded itself: the oldest entries go first (a batch holds at most a processor's batch of events, so an
 * entry that old belongs to an event that was handled or parked long ago). Another instance that takes over the segment
 * counts from zero: the bound holds per instance.
 */
final class FailedAttempts {

    private final int capacity;
    private final Map<String, Integer> failures;

    FailedAttempts(int capacity) {
        this.capacity = capacity;
        this.failures = new LinkedHashMap<>(16, 0.75f, true);
    }

    /** Counts one more failure of {@code eventIdentifier} in {@code group}; returns the failures counted so far. */
    synchronized int failed(String group, String eventIdentifier) {
        int count = failures.merge(group + '\n' + eventIdentifier, 1, Integer::sum);
        if (failures.size() > capacity) {
            var oldest = failures.keySet().iterator();
            oldest.next();
            oldest.remove();
        }
        return count;
    }

    synchronized void forget(String group, String eventIdentifier) {
        failures.remove(group + '\n' + eventIdentifier);
    }
}

package io.dlqdesk.retention;

import java.time.Clock;
import java.time.Duration;
import java.util.Set;
import java.util.function.Function;

/**
 * The last retention report, served while younger than {@code ttl} and about the same topics (a topic newly seen in an
 * incident is reported at once). One report is made at a time: viewers who ask together while it is stale wait for one
 * broker call, not one each.
 */
final class ReportCache {

    private final Duration ttl;
    private final Clock clock;
    private final Function<Set<String>, RetentionGuard.RetentionReport> make;
    private Set<String> lastTopics;
    private RetentionGuard.RetentionReport last;

    ReportCache(Duration ttl, Clock clock, Function<Set<String>, RetentionGuard.RetentionReport> make) {
        this.ttl = ttl;
        this.clock = clock;
        this.make = make;
    }

    /** The cached report of these topics while it is younger than the ttl (a zero ttl: never), else a new one. */
    synchronized RetentionGuard.RetentionReport current(Set<String> topics) {
        if (last != null && topics.equals(lastTopics) && clock.instant().isBefore(last.checkedAt().plus(ttl))) {
            return last;
        }
        return refresh(topics);
    }

    /** A new report, kept for the next viewers; a failure keeps the last one and reaches the caller. */
    synchronized RetentionGuard.RetentionReport refresh(Set<String> topics) {
        RetentionGuard.RetentionReport report = make.apply(topics);
        lastTopics = Set.copyOf(topics);
        last = report;
        return report;
    }
}

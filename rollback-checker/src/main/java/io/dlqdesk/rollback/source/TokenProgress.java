package io.dlqdesk.rollback.source;

import org.axonframework.eventhandling.GapAwareTrackingToken;
import org.axonframework.eventhandling.MergedTrackingToken;
import org.axonframework.eventhandling.ReplayToken;
import org.axonframework.eventhandling.TrackingToken;

import java.util.Set;
import java.util.TreeSet;
import java.util.function.LongPredicate;

/**
 * How far an event processor has really read the event store. A gap-aware token's index is the
 * highest event it handled; below it may be gaps: indexes whose transaction had not committed when the
 * processor passed. A gap whose event has committed since is an event the processor has not handled
 * yet, so it has read only up to just below that gap. A gap with no event (a rolled-back insert, or a
 * transaction still open) holds nothing anyone could have been told about.
 */
final class TokenProgress {

    private TokenProgress() {
    }

    /** Every gap in the token (and the tokens it wraps). */
    static Set<Long> gaps(TrackingToken token) {
        Set<Long> gaps = new TreeSet<>();
        collect(token, gaps);
        return gaps;
    }

    /** The highest index up to which every committed event was handled; -1 for none. */
    static long processedUpTo(TrackingToken token, LongPredicate committed) {
        if (token == null) {
            return -1;
        }
        if (token instanceof ReplayToken replay) {
            return processedUpTo(replay.getCurrentToken(), committed);
        }
        if (token instanceof MergedTrackingToken merged) {
            return Math.min(processedUpTo(merged.lowerSegmentToken(), committed), processedUpTo(merged.upperSegmentToken(), committed));
        }
        if (token instanceof GapAwareTrackingToken gapAware) {
            return gapAware.getGaps().stream().filter(committed::test).mapToLong(gap -> gap - 1).min().orElse(gapAware.getIndex());
        }
        return token.position().orElse(-1);
    }

    private static void collect(TrackingToken token, Set<Long> gaps) {
        if (token instanceof ReplayToken replay) {
            collect(replay.getCurrentToken(), gaps);
        } else if (token instanceof MergedTrackingToken merged) {
            collect(merged.lowerSegmentToken(), gaps);
            collect(merged.upperSegmentToken(), gaps);
        } else if (token instanceof GapAwareTrackingToken gapAware) {
            gaps.addAll(gapAware.getGaps());
        }
    }
}

package io.dlqdesk.rebuild;

import java.time.Duration;
import java.time.Instant;

/**
 * A bulk rebuild as the API and the console show it. {@code rowsWritten} is the database's estimate of the rows in the
 * shadow tables (InnoDB's, refreshed as the load goes); {@code eta} is null when not loading or not yet known;
 * {@code runsOn} names the instance that runs it; {@code failure} says why it failed or was cancelled.
 */
public record RebuildView(String id, String processor, RebuildPhase phase, String requestedBy, String reason, Instant requestedAt,
                          Instant phaseAt, Instant heartbeatAt, Instant endedAt, String runsOn, long eventsRead, long eventsEstimated,
                          long rowsWritten, int parkedEvents, String cancelledBy, String failure, Duration eta) {

    /** What a failure's description is cut to. */
    public static final int MAX_FAILURE_LENGTH = 2000;
    /** What an instance's name is cut to. */
    public static final int MAX_RUNS_ON_LENGTH = 255;
}

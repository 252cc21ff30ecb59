package io.dlqdesk.bench;

import java.util.List;

/**
 * The sizes of one run. {@code --quick} is for a run under five minutes; the defaults are the issue's.
 *
 * @param rounds product and baseline each run this many times, alternating; medians are reported
 */
record BenchSettings(boolean quick, int ingestRecords, int replays, int rebuildEvents, int queryIncidents, int queryRequests,
                     int memoryRecords, int rounds, int databasePauseSeconds) {

    static BenchSettings from(List<String> args) {
        boolean quick = args.contains("--quick");
        for (String arg : args) {
            if (!arg.equals("--quick")) {
                throw new IllegalArgumentException("unknown argument " + arg + " (only --quick)");
            }
        }
        return quick
                ? new BenchSettings(true, 5_000, 500, 20_000, 100_000, 300, 5_000, 2, 30)
                : new BenchSettings(false, 50_000, 5_000, 200_000, 100_000, 1_000, 50_000, 3, 30);
    }
}

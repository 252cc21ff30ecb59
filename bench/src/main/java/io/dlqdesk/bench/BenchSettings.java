package io.dlqdesk.bench;

import java.util.List;

/**
 * The sizes of one run. {@code --quick} is for a run under five minutes; the defaults are the issue's.
 * {@code --rebuild-only} runs the rebuild benchmark alone (it prints its table and leaves latest.json as it is);
 * {@code --ingest-only} the replay and ingest rounds and the write path alone, {@code --memory-only} the memory benchmark
 * (each printed, latest.json as it is). {@code --instances} runs the service's jar as 1, 2 and 3 instances on the same data
 * ({@link InstancesBench}; its own sizes, its own key in latest.json).
 *
 * @param rounds product and baseline each run this many times, alternating; medians are reported
 */
record BenchSettings(boolean quick, boolean rebuildOnly, boolean ingestOnly, boolean memoryOnly, boolean instances, int ingestRecords, int replays, int rebuildEvents, int queryIncidents, int queryRequests,
                     int memoryRecords, int rounds, int databasePauseSeconds) {

    static BenchSettings from(List<String> args) {
        boolean quick = args.contains("--quick");
        boolean rebuildOnly = args.contains("--rebuild-only");
        boolean ingestOnly = args.contains("--ingest-only");
        boolean memoryOnly = args.contains("--memory-only");
        boolean instances = args.contains("--instances");
        for (String arg : args) {
            if (!List.of("--quick", "--rebuild-only", "--ingest-only", "--memory-only", "--instances").contains(arg)) {
                throw new IllegalArgumentException("unknown argument " + arg + " (--quick, --rebuild-only, --ingest-only, --memory-only, --instances)");
            }
        }
        if (instances && args.size() > 1) {
            throw new IllegalArgumentException("--instances runs alone, with its own sizes (" + args + ")");
        }
        return quick
                ? new BenchSettings(true, rebuildOnly, ingestOnly, memoryOnly, false, 5_000, 500, 20_000, 100_000, 300, 5_000, 2, 30)
                : new BenchSettings(false, rebuildOnly, ingestOnly, memoryOnly, instances, 50_000, 5_000, 200_000, 100_000, 1_000, 50_000, 3, 30);
    }
}

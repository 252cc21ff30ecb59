package io.dlqdesk.consumer;

import java.util.concurrent.atomic.LongAdder;

/**
 * Counts the replays a consumer skipped: a total here, and when Micrometer is there the counter
 * {@code dlq.consumer.replays.skipped} tagged {@code group} (this consumer's) and {@code target_group}
 * (the group the replay was for). Thread-safe; one instance may serve every consumer of a service.
 */
public final class SkippedReplays {

    private static final String MICROMETER = "io.micrometer.core.instrument.Metrics";

    private final LongAdder total = new LongAdder();
    private final Meter meter;

    SkippedReplays(Meter meter) {
        this.meter = meter;
    }

    /**
     * Counts here and, when Micrometer is on the classpath, on its global registry (Spring Boot binds
     * its registry there unless {@code management.metrics.use-global-registry=false}). For another
     * registry use {@link MicrometerSkippedReplays#countingOn}.
     */
    public static SkippedReplays create() {
        return micrometerPresent(SkippedReplays.class.getClassLoader()) ? MicrometerSkippedReplays.countingOnGlobalRegistry() : inMemory();
    }

    /** Counts here only. */
    public static SkippedReplays inMemory() {
        return new SkippedReplays((group, targetGroup) -> {
        });
    }

    /** Skipped records counted since this was created. */
    public long count() {
        return total.sum();
    }

    void add(String group, String targetGroup) {
        total.increment();
        meter.increment(group, targetGroup);
    }

    // the Micrometer classes must not be touched where they are absent: optional dependency
    static boolean micrometerPresent(ClassLoader classLoader) {
        try {
            Class.forName(MICROMETER, false, classLoader);
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    interface Meter {
        void increment(String group, String targetGroup);
    }
}

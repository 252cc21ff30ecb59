package io.dlqdesk.consumer;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts what consumers decided for replays: the replays they skipped and the replays they kept (a
 * record with a target-group header, for their own group or kept for a reason such as
 * {@link Decision#KEEP_UNSIGNED}), as totals here and, when Micrometer is there, as the counters
 * {@code dlq.consumer.replays.skipped} and {@code dlq.consumer.replays.kept} (the latter also tagged
 * {@code decision}).
 * <p>
 * Their {@code group} tag is the counting consumer's group; their {@code target_group} tag is the
 * replay's target group only when it is one of the groups of the filters counting here, else
 * {@value #OTHER}. The header is anyone's to write: tags from its raw value would let any producer
 * create series without bound. Thread-safe; one instance may serve every consumer of a service.
 */
public final class SkippedReplays {

    /** The {@code target_group} tag of a group this service does not consume as. */
    public static final String OTHER = "other";
    private static final String MICROMETER = "io.micrometer.core.instrument.Metrics";

    private final LongAdder skipped = new LongAdder();
    private final LongAdder kept = new LongAdder();
    private final Set<String> groups = ConcurrentHashMap.newKeySet();
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
        return new SkippedReplays(new Meter() {
            @Override
            public void skipped(String group, String targetGroup) {
            }

            @Override
            public void kept(String group, String targetGroup, Decision decision) {
            }
        });
    }

    /** Skipped records counted since this was created. */
    public long count() {
        return skipped.sum();
    }

    /** Kept replays (records with a target-group header) counted since this was created. */
    public long keptCount() {
        return kept.sum();
    }

    /** A filter of this consumer group counts here: its name may be a tag. Groups come from code, never from records. */
    void register(String group) {
        groups.add(group);
    }

    void add(String group, String targetGroup, Decision decision) {
        if (decision.skip()) {
            skipped.increment();
            meter.skipped(group, tag(targetGroup));
        } else if (decision != Decision.KEEP_NO_TARGET_GROUP) {
            kept.increment();
            meter.kept(group, tag(targetGroup), decision);
        }
    }

    private String tag(String targetGroup) {
        return targetGroup != null && groups.contains(targetGroup) ? targetGroup : OTHER;
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
        void skipped(String group, String targetGroup);

        void kept(String group, String targetGroup, Decision decision);
    }
}

package io.dlqdesk.consumer;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;

/** {@link SkippedReplays} that also count on a Micrometer registry. Needs micrometer-core. */
public final class MicrometerSkippedReplays {

    public static final String METER = "dlq.consumer.replays.skipped";
    public static final String KEPT_METER = "dlq.consumer.replays.kept";

    private MicrometerSkippedReplays() {
    }

    /** Tags are bounded: see {@link SkippedReplays}. */
    public static SkippedReplays countingOn(MeterRegistry registry) {
        return new SkippedReplays(new SkippedReplays.Meter() {
            @Override
            public void skipped(String group, String targetGroup) {
                Counter.builder(METER)
                        .description("Replayed records skipped because the desk replayed them (signed) for another consumer group")
                        .tag("group", group)
                        .tag("target_group", targetGroup)
                        .register(registry)
                        .increment();
            }

            @Override
            public void kept(String group, String targetGroup, Decision decision) {
                Counter.builder(KEPT_METER)
                        .description("Records with a target-group header processed, by why they were not skipped")
                        .tag("group", group)
                        .tag("target_group", targetGroup)
                        .tag("decision", decision.name())
                        .register(registry)
                        .increment();
            }
        });
    }

    static SkippedReplays countingOnGlobalRegistry() {
        return countingOn(Metrics.globalRegistry);
    }
}

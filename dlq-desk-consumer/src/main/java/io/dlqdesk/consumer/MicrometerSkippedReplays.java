package io.dlqdesk.consumer;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;

/** {@link SkippedReplays} that also count on a Micrometer registry. Needs micrometer-core. */
public final class MicrometerSkippedReplays {

    public static final String METER = "dlq.consumer.replays.skipped";

    private MicrometerSkippedReplays() {
    }

    public static SkippedReplays countingOn(MeterRegistry registry) {
        return new SkippedReplays((group, targetGroup) -> Counter.builder(METER)
                .description("Replayed records skipped because the desk replayed them for another consumer group")
                .tag("group", group)
                .tag("target_group", targetGroup)
                .register(registry)
                .increment());
    }

    static SkippedReplays countingOnGlobalRegistry() {
        return countingOn(Metrics.globalRegistry);
    }
}

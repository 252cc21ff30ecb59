package io.dlqdesk.bench;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * How one of the service's meters moved over a benchmark phase: a distribution summary's mean over what it recorded
 * since {@link #start}, or a counter's increase. A meter the service has not registered reads as zero.
 */
final class MeterDelta {

    private final MeterRegistry meters;
    private final String name;
    private final double count;
    private final double total;

    private MeterDelta(MeterRegistry meters, String name) {
        this.meters = meters;
        this.name = name;
        double[] now = now();
        this.count = now[0];
        this.total = now[1];
    }

    static MeterDelta start(ProductUnderTest product, String name) {
        return new MeterDelta(product.app.getBean(MeterRegistry.class), name);
    }

    /** Mean of the values a summary recorded since the start, one decimal; null when it recorded none. */
    Double mean() {
        double[] now = now();
        double recorded = now[0] - count;
        return recorded > 0 ? Math.round((now[1] - total) * 10 / recorded) / 10.0 : null;
    }

    /** A summary's recordings, or a counter's increase, since the start. */
    long count() {
        return Math.round(now()[0] - count);
    }

    private double[] now() {
        DistributionSummary summary = meters.find(name).summary();
        if (summary != null) {
            return new double[] {summary.count(), summary.totalAmount()};
        }
        Counter counter = meters.find(name).counter();
        return new double[] {counter == null ? 0 : counter.count(), 0};
    }
}

package io.dlqdesk.bench;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Events per transaction of each event processor over a benchmark, from the service's {@code dlq.processor.batch_events}:
 * every transaction costs a token update and a commit, so this says how well a storm or a rebuild is batched.
 */
final class ProcessorBatches {

    private static final String METRIC = "dlq.processor.batch_events";

    private final MeterRegistry meters;
    private final Map<String, double[]> before;

    private ProcessorBatches(MeterRegistry meters) {
        this.meters = meters;
        this.before = totals();
    }

    static ProcessorBatches start(ProductUnderTest product) {
        return new ProcessorBatches(product.app.getBean(MeterRegistry.class));
    }

    /** Mean events per transaction since {@link #start}, by processing group; groups that committed nothing are left out. */
    Map<String, Object> eventsPerTransaction() {
        Map<String, Object> means = new LinkedHashMap<>();
        totals().forEach((group, now) -> {
            double[] then = before.getOrDefault(group, new double[2]);
            double transactions = now[0] - then[0];
            if (transactions > 0) {
                means.put(group, Math.round((now[1] - then[1]) * 10 / transactions) / 10.0);
            }
        });
        return means;
    }

    private Map<String, double[]> totals() {
        Map<String, double[]> totals = new TreeMap<>();
        for (DistributionSummary summary : meters.find(METRIC).summaries()) {
            totals.put(summary.getId().getTag("processing_group"), new double[] {summary.count(), summary.totalAmount()});
        }
        return totals;
    }
}

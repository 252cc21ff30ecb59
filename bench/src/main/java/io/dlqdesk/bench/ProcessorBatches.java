package io.dlqdesk.bench;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.distribution.CountAtBucket;

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
    private final Map<String, Map<Double, Double>> bucketsBefore;

    private ProcessorBatches(MeterRegistry meters) {
        this.meters = meters;
        this.before = totals();
        this.bucketsBefore = buckets();
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

    /**
     * Transactions since {@link #start} by how many events they handled, by processing group, from the summary's histogram
     * (its buckets' upper bounds: 1, 10, 100, 500, 1,000 events, and more); groups that committed nothing are left out.
     */
    Map<String, Object> transactionsBySize() {
        Map<String, Object> histograms = new LinkedHashMap<>();
        Map<String, double[]> totals = totals();
        buckets().forEach((group, now) -> {
            Map<Double, Double> then = bucketsBefore.getOrDefault(group, Map.of());
            Map<String, Long> histogram = new LinkedHashMap<>();
            double below = 0;
            double lower = 0;
            for (Map.Entry<Double, Double> bucket : now.entrySet()) { // cumulative: transactions of at most this many events
                double atOrBelow = bucket.getValue() - then.getOrDefault(bucket.getKey(), 0.0);
                long count = Math.round(atOrBelow - below);
                if (count > 0) {
                    histogram.put(bucket.getKey() == lower + 1 ? fmt(bucket.getKey()) : fmt(lower + 1) + "-" + fmt(bucket.getKey()), count);
                }
                below = atOrBelow;
                lower = bucket.getKey();
            }
            double[] total = totals.get(group);
            double[] totalThen = before.getOrDefault(group, new double[2]);
            long above = Math.round(total[0] - totalThen[0] - below);
            if (above > 0) {
                histogram.put("more", above);
            }
            if (!histogram.isEmpty()) {
                histograms.put(group, histogram);
            }
        });
        return histograms;
    }

    private static String fmt(double events) {
        return Long.toString(Math.round(events));
    }

    private Map<String, Map<Double, Double>> buckets() {
        Map<String, Map<Double, Double>> buckets = new TreeMap<>();
        for (DistributionSummary summary : meters.find(METRIC).summaries()) {
            Map<Double, Double> counts = new TreeMap<>();
            for (CountAtBucket bucket : summary.takeSnapshot().histogramCounts()) {
                counts.put(bucket.bucket(), bucket.count());
            }
            buckets.put(summary.getId().getTag("processing_group"), counts);
        }
        return buckets;
    }

    private Map<String, double[]> totals() {
        Map<String, double[]> totals = new TreeMap<>();
        for (DistributionSummary summary : meters.find(METRIC).summaries()) {
            totals.put(summary.getId().getTag("processing_group"), new double[] {summary.count(), summary.totalAmount()});
        }
        return totals;
    }
}

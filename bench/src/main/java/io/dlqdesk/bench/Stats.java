package io.dlqdesk.bench;

import java.util.Arrays;

/** Medians and percentiles: a noisy 2-core machine makes single numbers meaningless. */
final class Stats {

    private Stats() {
    }

    static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    /** Nearest-rank percentile of already sorted values. */
    static double percentile(double[] sorted, double quantile) {
        return sorted[Math.min(sorted.length - 1, Math.max(0, (int) Math.ceil(quantile * sorted.length) - 1))];
    }
}

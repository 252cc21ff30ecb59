package io.dlqdesk.projections;

import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The cardinality cap of a labelled gauge family: at most {@code maxSeries} series keep their own labels,
 * the largest values first; the rest are summed into one series whose every label is {@value #OTHER}.
 * Totals are preserved, so a sum over the family stays right however many label values there are.
 */
public final class CappedSeries {

    public static final String OTHER = "other";

    private final List<String> labels;
    private final int maxSeries;

    public CappedSeries(List<String> labels, int maxSeries) {
        if (maxSeries < 1) {
            throw new IllegalArgumentException("max series must be at least 1, was " + maxSeries);
        }
        this.labels = List.copyOf(labels);
        this.maxSeries = maxSeries;
    }

    /** One series: its label values, in the order of the family's label names, and its value. */
    public record Series(List<String> values, double value) {

        public Series {
            values = values.stream().map(v -> Objects.requireNonNullElse(v, "")).toList();
        }
    }

    /** The series to publish: the largest {@code maxSeries} (ties by label values, so the choice is stable), then {@value #OTHER}. */
    public Map<List<String>, Double> cap(List<Series> series) {
        if (series.stream().anyMatch(s -> s.values().size() != labels.size())) {
            throw new IllegalArgumentException("every series needs a value for each of " + labels);
        }
        List<Series> ordered = new ArrayList<>(series);
        ordered.sort(Comparator.comparingDouble(Series::value).reversed().thenComparing(s -> String.join("\u0000", s.values())));
        Map<List<String>, Double> capped = new LinkedHashMap<>();
        List<String> other = labels.stream().map(label -> OTHER).toList();
        for (int i = 0; i < ordered.size(); i++) {
            Series s = ordered.get(i);
            // merged, not put: a real label value that reads "other" adds to the same series
            capped.merge(i < maxSeries ? s.values() : other, s.value(), Double::sum);
        }
        return capped;
    }

    /** {@link #cap} as MultiGauge rows. */
    public List<MultiGauge.Row<?>> rows(List<Series> series) {
        List<MultiGauge.Row<?>> rows = new ArrayList<>();
        cap(series).forEach((values, value) -> {
            List<String> tags = new ArrayList<>();
            for (int i = 0; i < labels.size(); i++) {
                tags.add(labels.get(i));
                tags.add(values.get(i));
            }
            rows.add(MultiGauge.Row.of(Tags.of(tags.toArray(String[]::new)), value));
        });
        return rows;
    }
}

package io.dlqdesk.projections;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CappedSeriesTest {

    private static final CappedSeries CAP = new CappedSeries(List.of("topic", "status"), 10);

    @Test
    void fiveLabelValuesOverTheCapBecomeTheCapPlusOtherWithTheSumPreserved() {
        List<CappedSeries.Series> series = new ArrayList<>();
        for (int i = 1; i <= 15; i++) {
            series.add(new CappedSeries.Series(List.of("topic-" + i, "OPEN"), i));
        }
        Map<List<String>, Double> capped = CAP.cap(series);

        assertThat(capped).hasSize(11);
        assertThat(capped.get(List.of("other", "other"))).isEqualTo(1 + 2 + 3 + 4 + 5.0); // the five smallest
        assertThat(capped).containsEntry(List.of("topic-6", "OPEN"), 6.0).containsEntry(List.of("topic-15", "OPEN"), 15.0);
        assertThat(capped.values().stream().mapToDouble(Double::doubleValue).sum()).isEqualTo(120.0);
        assertThat(CAP.rows(series)).hasSize(11);
    }

    @Test
    void atTheCapNothingIsSummed() {
        List<CappedSeries.Series> series = new ArrayList<>();
        for (int i = 1; i <= 10; i++) {
            series.add(new CappedSeries.Series(List.of("topic-" + i, "ACKED"), 1));
        }
        assertThat(CAP.cap(series)).hasSize(10).doesNotContainKey(List.of("other", "other"));
    }

    @Test
    void aRealLabelValueOtherAddsToTheOtherSeriesInsteadOfReplacingIt() {
        CappedSeries one = new CappedSeries(List.of("topic"), 1);
        Map<List<String>, Double> capped = one.cap(List.of(new CappedSeries.Series(List.of("other"), 5),
                new CappedSeries.Series(List.of("a"), 2), new CappedSeries.Series(List.of("b"), 1)));
        assertThat(capped).containsExactly(Map.entry(List.of("other"), 8.0));
    }

    @Test
    void aSeriesWithTheWrongNumberOfLabelValuesIsRefused() {
        assertThatThrownBy(() -> CAP.cap(List.of(new CappedSeries.Series(List.of("only-topic"), 1))))
                .isInstanceOf(IllegalArgumentException.class);
    }
}

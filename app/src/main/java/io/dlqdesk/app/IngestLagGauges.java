package io.dlqdesk.app;

import io.dlqdesk.ingest.loop.LoopHealth;
import io.dlqdesk.projections.CappedSeries;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;

import java.util.List;

/**
 * The ingest lag per DLQ partition this instance holds, from the loop's last round ({@link LoopHealth#lagByPartition()}),
 * capped like every labelled family: a consumer group can hold thousands of partitions. The total
 * ({@code dlq.ingest.lag}) is the loop's own gauge, exact and live; this family follows it every refresh.
 */
final class IngestLagGauges {

    private final LoopHealth loop;
    private final CappedSeries byPartition;
    private final MultiGauge lag;

    IngestLagGauges(LoopHealth loop, int maxSeries, MeterRegistry meters) {
        this.loop = loop;
        this.byPartition = new CappedSeries(List.of("topic", "partition"), maxSeries);
        this.lag = MultiGauge.builder("dlq.ingest.partition.lag").baseUnit("records")
                .description("records behind the log end of each DLQ partition this instance holds: not fetched yet, or received and not committed")
                .register(meters);
    }

    void refresh() {
        List<CappedSeries.Series> series = loop.lagByPartition().entrySet().stream()
                .map(entry -> new CappedSeries.Series(List.of(entry.getKey().topic(), Integer.toString(entry.getKey().partition())), entry.getValue()))
                .toList();
        lag.register(byPartition.rows(series), true);
    }
}

package io.dlqdesk.parked;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code dlq.parked.events}: the events each processing group holds parked, zero included, one series per group (a
 * fixed set). The table is shared, so every instance reports the same value: aggregate with max, not sum.
 */
public final class ParkedEventGauges {

    private final ParkedEvents parked;
    private final MultiGauge gauge;

    public ParkedEventGauges(ParkedEvents parked, MeterRegistry meters) {
        this.parked = parked;
        this.gauge = MultiGauge.builder("dlq.parked.events").baseUnit("events")
                .description("events a processing group could not handle and parked; its aggregate's later events wait behind them")
                .register(meters);
    }

    /** A failure leaves the last values in place and reaches the caller. */
    public void refresh() {
        Map<String, Long> counts = parked.countsByGroup();
        List<MultiGauge.Row<?>> rows = new ArrayList<>();
        for (String group : parked.groups()) {
            rows.add(MultiGauge.Row.of(Tags.of("processor", parked.processorOf(group), "processing_group", group),
                    counts.getOrDefault(group, 0L)));
        }
        gauge.register(rows, true);
    }
}

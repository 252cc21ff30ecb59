package io.dlqdesk.app;

import io.dlqdesk.parked.ProcessorStalls.StoredSegment;
import io.dlqdesk.projections.CappedSeries;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import org.axonframework.common.DateTimeUtils;
import org.springframework.jdbc.core.JdbcTemplate;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * How far each processing group is behind the event store's head (max global_index), read from
 * token_entry by {@link #refresh()} on a schedule: the head minus the position of the group's
 * slowest segment, so every instance reports the same value whichever segments it owns.
 */
final class ProcessorLagGauges {

    private final JdbcTemplate jdbc;
    private final TokenPositions tokens;
    private final CappedSeries byGroup;
    private final MultiGauge lag;
    private final MultiGauge lagSeconds;
    private final Clock clock;

    ProcessorLagGauges(JdbcTemplate jdbc, int maxSeries, TokenPositions tokens, MeterRegistry meters, Clock clock) {
        this.jdbc = jdbc;
        this.tokens = tokens;
        this.clock = clock;
        this.byGroup = new CappedSeries(List.of("processing_group"), maxSeries);
        this.lag = MultiGauge.builder("dlq.processor.lag").baseUnit("events")
                .description("event store positions between the head and the processing group's slowest segment").register(meters);
        this.lagSeconds = MultiGauge.builder("dlq.processor.lag.age").baseUnit("seconds")
                .description("how long the oldest event the processing group's slowest segment has not handled has been stored; 0 at the head")
                .register(meters);
    }

    /** A failure (or a token that cannot be read) leaves the last values in place and reaches the caller. */
    void refresh() {
        long head = tokens.eventStoreHead();
        Map<String, Long> slowest = new TreeMap<>();
        for (StoredSegment segment : tokens.read()) {
            slowest.merge(segment.processor(), segment.position(), Math::min);
        }
        List<CappedSeries.Series> series = new ArrayList<>();
        List<CappedSeries.Series> ages = new ArrayList<>();
        Instant now = clock.instant();
        slowest.forEach((group, position) -> {
            series.add(new CappedSeries.Series(List.of(group), Math.max(0, head - position)));
            ages.add(new CappedSeries.Series(List.of(group), position >= head ? 0 : age(position, now)));
        });
        lag.register(byGroup.rows(series), true);
        lagSeconds.register(byGroup.rows(ages), true);
    }

    /** Seconds since the first event after {@code position} was stored (its own timestamp); 0 when there is none. */
    private long age(long position, Instant now) {
        List<String> stamped = jdbc.queryForList("SELECT time_stamp FROM domain_event_entry WHERE global_index > ? ORDER BY global_index LIMIT 1",
                String.class, position);
        if (stamped.isEmpty()) {
            return 0;
        }
        return Math.max(0, Duration.between(DateTimeUtils.parseInstant(stamped.get(0)), now).toSeconds());
    }
}

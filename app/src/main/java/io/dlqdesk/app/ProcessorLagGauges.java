package io.dlqdesk.app;

import io.dlqdesk.projections.CappedSeries;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.serialization.Serializer;
import org.axonframework.serialization.SimpleSerializedObject;
import org.springframework.jdbc.core.JdbcTemplate;

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
    private final Serializer serializer;
    private final CappedSeries byGroup;
    private final MultiGauge lag;

    ProcessorLagGauges(JdbcTemplate jdbc, int maxSeries, Serializer serializer, MeterRegistry meters) {
        this.jdbc = jdbc;
        this.serializer = serializer;
        this.byGroup = new CappedSeries(List.of("processing_group"), maxSeries);
        this.lag = MultiGauge.builder("dlq.processor.lag").baseUnit("events")
                .description("event store positions between the head and the processing group's slowest segment").register(meters);
    }

    /** A failure (or a token that cannot be read) leaves the last values in place and reaches the caller. */
    void refresh() {
        Long head = jdbc.queryForObject("SELECT COALESCE(MAX(global_index), 0) FROM domain_event_entry", Long.class);
        Map<String, Long> slowest = new TreeMap<>();
        jdbc.query("SELECT processor_name, token, token_type FROM token_entry", row -> {
            String group = row.getString("processor_name");
            if (group.startsWith("__")) {
                return; // Axon's own rows (the node id's __config), not a processor
            }
            long position = position(row.getBytes("token"), row.getString("token_type"));
            slowest.merge(group, position, Math::min);
        });
        List<CappedSeries.Series> series = new ArrayList<>();
        slowest.forEach((group, position) -> series.add(new CappedSeries.Series(List.of(group), Math.max(0, head - position))));
        lag.register(byGroup.rows(series), true);
    }

    /** A segment without a token has processed nothing: position 0, below the first global index. */
    private long position(byte[] token, String type) {
        if (token == null || type == null) {
            return 0;
        }
        TrackingToken tracking = serializer.deserialize(new SimpleSerializedObject<>(token, byte[].class, type, null));
        return tracking == null ? 0 : tracking.position().orElse(0);
    }
}

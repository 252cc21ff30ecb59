package io.dlqdesk.projections.incident;

import io.dlqdesk.projections.CappedSeries;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import org.springframework.jdbc.core.JdbcTemplate;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Unresolved incidents (OPEN or ACKED) as gauges, read from incident_summary and incident_count by
 * {@link #refresh()} on a schedule, indexed queries only (one per family, and one for the oldest), never on a scrape. Each labelled family is
 * capped ({@link CappedSeries}); the oldest incident's age is computed at scrape time from the
 * refreshed detection time, so it keeps growing between refreshes.
 */
public final class OpenIncidentGauges {

    private static final String UNRESOLVED = "('OPEN', 'ACKED')";

    private final JdbcTemplate jdbc;
    /** On the same template as the counts: the caller's query timeout bounds both. */
    private final IncidentSummaryTable summaries;
    private final Clock clock;
    private final CappedSeries byLocation;
    private final CappedSeries byException;
    private final MultiGauge open;
    private final MultiGauge openByException;
    /** Written by the refreshing thread, read by scrapes; null while nothing is unresolved. */
    private volatile Instant oldestDetectedAt;

    public OpenIncidentGauges(JdbcTemplate jdbc, int maxSeries, MeterRegistry meters, Clock clock) {
        this.jdbc = jdbc;
        this.summaries = new IncidentSummaryTable(jdbc);
        this.clock = clock;
        this.byLocation = new CappedSeries(List.of("topic", "group", "status"), maxSeries);
        this.byException = new CappedSeries(List.of("exception_group", "exception_class", "status"), maxSeries);
        this.open = MultiGauge.builder("dlq.incidents.open").description("unresolved incidents per original topic, failing group and status")
                .register(meters);
        this.openByException = MultiGauge.builder("dlq.incidents.open.by_exception_group")
                .description("unresolved incidents per exception group and status").register(meters);
        Gauge.builder("dlq.incidents.oldest_open.age", this, OpenIncidentGauges::oldestAgeSeconds).baseUnit("seconds")
                .description("time since the oldest unresolved incident was detected (0 when none)").register(meters);
    }

    /** One query per family; a failure leaves the last values in place and reaches the caller. */
    public void refresh() {
        refreshByLocation();
        refreshByException();
    }

    /** Counts per (topic, group, status) from incident_count; the oldest unresolved incident from (status, detected_at), a second query. */
    private void refreshByLocation() {
        List<CappedSeries.Series> series = jdbc.query("SELECT value, status, incidents FROM incident_count WHERE dimension = '"
                        + CountDeltas.LOCATION + "' AND status IN " + UNRESOLVED + " AND incidents > 0",
                (row, number) -> {
                    List<String> topicAndGroup = CountDeltas.topicAndGroup(row.getString("value"));
                    return new CappedSeries.Series(List.of(topicAndGroup.get(0), topicAndGroup.get(1), row.getString("status")),
                            row.getLong("incidents"));
                });
        open.register(byLocation.rows(series), true);
        oldestDetectedAt = summaries.oldestUnresolvedDetectedAt();
    }

    private void refreshByException() {
        List<CappedSeries.Series> series = jdbc.query("SELECT c.value, COALESCE(g.exception_class, '') AS exception_class, c.status, c.incidents"
                        + " FROM incident_count c LEFT JOIN exception_group g ON g.exception_group = c.value"
                        + " WHERE c.dimension = 'EXCEPTION_GROUP' AND c.status IN " + UNRESOLVED + " AND c.incidents > 0",
                (row, number) -> new CappedSeries.Series(List.of(row.getString("value"), row.getString("exception_class"), row.getString("status")),
                        row.getLong("incidents")));
        openByException.register(byException.rows(series), true);
    }

    private double oldestAgeSeconds() {
        Instant oldest = oldestDetectedAt;
        return oldest == null ? 0 : Math.max(0, Duration.between(oldest, clock.instant()).toMillis() / 1000.0);
    }
}

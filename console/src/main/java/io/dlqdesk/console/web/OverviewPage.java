package io.dlqdesk.console.web;

import io.dlqdesk.console.ConsoleProperties;
import io.dlqdesk.domain.incident.IncidentStatus;
import io.dlqdesk.ingest.quarantine.ListQuarantineQuery;
import io.dlqdesk.ingest.quarantine.QuarantinePage;
import io.dlqdesk.projections.history.ListReopenedQuery;
import io.dlqdesk.projections.history.ReopenedIncidents;
import io.dlqdesk.projections.incident.CountIncidentsQuery;
import io.dlqdesk.projections.incident.ExceptionGroupView;
import io.dlqdesk.projections.incident.IncidentCount;
import io.dlqdesk.projections.incident.ListExceptionGroupsQuery;
import io.dlqdesk.replay.request.ReplaySwitch;
import io.dlqdesk.rollback.web.SharedReadinessCheck;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.axonframework.messaging.responsetypes.ResponseTypes;
import org.axonframework.queryhandling.QueryGateway;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The overview: unresolved incidents by topic, consumer group and exception group (each a link to the filtered list),
 * reopenings in the last 24 h, the quarantine, ingest readiness and lag, the replay switch and the last rollback verdict.
 * The page polls {@code /console/overview/panels} and swaps only the panels' content, so the reader keeps their place.
 */
@Controller
public class OverviewPage {

    /** Rows per count table; the rest is a link to the list. */
    static final int ROWS = 25;
    private static final Duration REOPENED_WITHIN = Duration.ofHours(24);

    private final QueryGateway queries;
    private final ReplaySwitch replaySwitch;
    private final HealthIndicator ingestReadiness;
    private final MeterRegistry meters;
    private final SharedReadinessCheck rollbackChecks;
    private final ConsoleProperties properties;
    private final Clock clock = Clock.systemUTC();

    OverviewPage(QueryGateway queries, ReplaySwitch replaySwitch, @Qualifier("dlqIngestHealthIndicator") HealthIndicator ingestReadiness,
                 MeterRegistry meters, SharedReadinessCheck rollbackChecks, ConsoleProperties properties) {
        this.queries = queries;
        this.replaySwitch = replaySwitch;
        this.ingestReadiness = ingestReadiness;
        this.meters = meters;
        this.rollbackChecks = rollbackChecks;
        this.properties = properties;
    }

    /** Unresolved (OPEN and ACKED) incidents of one value of a dimension. */
    public record Unresolved(String value, long open, long acked) {
        public long total() {
            return open + acked;
        }
    }

    /** One DLQ partition's lag as the ingest loop's gauges report it. */
    public record PartitionLag(String topic, String partition, double records) {
    }

    @GetMapping("/console")
    String overview(Model model) {
        panels(model);
        model.addAttribute("refreshSeconds", properties.refreshInterval().toSeconds());
        return "console/overview";
    }

    @GetMapping("/console/overview/panels")
    String panelsOnly(Model model) {
        panels(model);
        return "console/overview :: panels";
    }

    private void panels(Model model) {
        model.addAttribute("byTopic", unresolved(CountIncidentsQuery.Dimension.TOPIC));
        model.addAttribute("byGroup", unresolved(CountIncidentsQuery.Dimension.CONSUMER_GROUP));
        List<ExceptionGroupView> groups = queries.query(new ListExceptionGroupsQuery(),
                ResponseTypes.multipleInstancesOf(ExceptionGroupView.class)).join().stream()
                .filter(group -> group.openIncidents() > 0)
                .sorted(Comparator.comparingLong(ExceptionGroupView::openIncidents).reversed()).toList();
        model.addAttribute("exceptionGroups", groups.stream().limit(ROWS).toList());
        model.addAttribute("exceptionGroupsMore", Math.max(0, groups.size() - ROWS));
        model.addAttribute("reopened", queries.query(new ListReopenedQuery(clock.instant().minus(REOPENED_WITHIN), 10),
                ReopenedIncidents.class).join());
        model.addAttribute("quarantined", queries.query(new ListQuarantineQuery(null, 0, 1), QuarantinePage.class).join().total());
        Health ingest = ingestReadiness.health();
        model.addAttribute("ingestStatus", ingest.getStatus().getCode());
        model.addAttribute("ingestDetails", ingest.getDetails());
        model.addAttribute("lag", partitionLag());
        model.addAttribute("lagTotal", meters.find("dlq.ingest.lag").gauges().stream().mapToDouble(Gauge::value).sum());
        model.addAttribute("lagMeasured", !meters.find("dlq.ingest.lag").gauges().isEmpty());
        model.addAttribute("replaySwitch", replaySwitch.state());
        model.addAttribute("rollback", rollbackChecks.lastReport().orElse(null));
        model.addAttribute("rows", ROWS);
        model.addAttribute("refreshedAt", clock.instant());
    }

    /** Per value: OPEN and ACKED counts, largest first, at most {@link #ROWS}. */
    private List<Unresolved> unresolved(CountIncidentsQuery.Dimension by) {
        Map<String, long[]> counts = new LinkedHashMap<>();
        for (IncidentCount count : queries.query(new CountIncidentsQuery(by), ResponseTypes.multipleInstancesOf(IncidentCount.class)).join()) {
            if (count.status() == IncidentStatus.OPEN) {
                counts.computeIfAbsent(count.value(), value -> new long[2])[0] += count.incidents();
            } else if (count.status() == IncidentStatus.ACKED) {
                counts.computeIfAbsent(count.value(), value -> new long[2])[1] += count.incidents();
            }
        }
        List<Unresolved> rows = new ArrayList<>();
        counts.forEach((value, open) -> {
            if (open[0] + open[1] > 0) {
                rows.add(new Unresolved(value, open[0], open[1]));
            }
        });
        rows.sort(Comparator.comparingLong(Unresolved::total).reversed().thenComparing(Unresolved::value));
        return rows.size() > ROWS ? rows.subList(0, ROWS) : rows;
    }

    /**
     * The ingest loop's lag per DLQ partition as its gauges report it ({@code dlq.ingest.partition.lag}, tags topic and
     * partition, refreshed with the other gauges); empty while this instance runs no ingest loop (the page says "not measured").
     */
    private List<PartitionLag> partitionLag() {
        return meters.find("dlq.ingest.partition.lag").gauges().stream()
                .map(gauge -> new PartitionLag(gauge.getId().getTag("topic"), gauge.getId().getTag("partition"), gauge.value()))
                .sorted(Comparator.comparingDouble(PartitionLag::records).reversed()).limit(ROWS).toList();
    }
}

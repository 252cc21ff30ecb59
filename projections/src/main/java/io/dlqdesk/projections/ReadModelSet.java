package io.dlqdesk.projections;

import io.dlqdesk.projections.asof.IncidentStatusIntervalProjection;
import io.dlqdesk.projections.history.IncidentHistoryProjection;
import io.dlqdesk.projections.incident.IncidentSummaryProjection;
import io.dlqdesk.projections.job.ReplayJobProjection;
import io.dlqdesk.projections.readiness.ReplayAttemptProjection;
import org.springframework.jdbc.core.JdbcTemplate;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The read models one event processor builds: every table its handlers write, and per processing group a way to make that
 * group's event handlers over other tables of the same shape (a bulk rebuild's). The tables are all of them: a rebuild swaps
 * exactly these, so one left out would keep its old rows beside the new ones.
 */
public record ReadModelSet(String processor, List<String> tables, Map<String, Function<JdbcTemplate, Object>> groups) {

    public ReadModelSet {
        tables = List.copyOf(tables);
        groups = Collections.unmodifiableMap(new LinkedHashMap<>(groups));
    }

    /** Every processor of read models, in the order a status page lists them. */
    public static List<ReadModelSet> all() {
        Map<String, Function<JdbcTemplate, Object>> incidents = new LinkedHashMap<>();
        incidents.put(IncidentSummaryProjection.PROCESSING_GROUP, IncidentSummaryProjection::over);
        incidents.put(IncidentHistoryProjection.PROCESSING_GROUP, IncidentHistoryProjection::new);
        incidents.put(IncidentStatusIntervalProjection.PROCESSING_GROUP, IncidentStatusIntervalProjection::new);
        return List.of(
                new ReadModelSet(ProjectionsConfiguration.INCIDENT_READ_MODELS, List.of("incident_summary", "incident_count", "exception_group",
                        "incident_history", "admin_action", "incident_status_interval", "replay_edit"), incidents),
                new ReadModelSet(ReplayAttemptProjection.PROCESSING_GROUP, List.of("replay_attempt", "replay_job_active"),
                        Map.of(ReplayAttemptProjection.PROCESSING_GROUP, ReplayAttemptProjection::new)),
                new ReadModelSet(ReplayJobProjection.PROCESSING_GROUP, List.of("replay_job", "replay_job_refusal"),
                        Map.of(ReplayJobProjection.PROCESSING_GROUP, ReplayJobProjection::new)));
    }

    /** The set of {@code processor}, if it builds read models. */
    public static Optional<ReadModelSet> of(String processor) {
        return all().stream().filter(set -> set.processor().equals(processor)).findFirst();
    }
}

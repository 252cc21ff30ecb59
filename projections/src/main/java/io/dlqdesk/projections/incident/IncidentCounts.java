package io.dlqdesk.projections.incident;

import io.dlqdesk.domain.incident.IncidentStatus;
import io.dlqdesk.projections.MultiRowInsert;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import java.util.Collection;
import java.util.List;

/**
 * The incident counts and exception groups tables, written by the incident-summary projection once per batch of
 * events, in the batch's transaction: an incident adds one to each of its dimensions under its status, and a status
 * change moves that one.
 */
@Component
class IncidentCounts {

    private static final MultiRowInsert NEW_GROUPS = new MultiRowInsert("exception_group", "exception_group, exception_class, fingerprint",
            "exception_group = exception_group");
    private static final MultiRowInsert ADD_COUNTS = new MultiRowInsert("incident_count", "dimension, value, status, incidents",
            "incidents = incidents + VALUES(incidents)");

    private final JdbcTemplate jdbc;

    IncidentCounts(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** The groups of the incidents a batch opened (in id order, known ones left as they are) and its netted count changes. */
    void write(Collection<ExceptionGroup> groups, CountDeltas deltas) {
        NEW_GROUPS.write(jdbc, groups.stream().map(group -> new Object[] {group.id(), group.exceptionClass(), group.fingerprint()}).toList());
        ADD_COUNTS.write(jdbc, deltas.rows());
    }

    List<IncidentCount> counts(CountIncidentsQuery.Dimension dimension) {
        return jdbc.query("SELECT value, status, incidents FROM incident_count WHERE dimension = ? AND incidents > 0 ORDER BY value, status",
                (row, number) -> new IncidentCount(row.getString("value"), IncidentStatus.valueOf(row.getString("status")),
                        row.getLong("incidents")), dimension.name());
    }

    List<ExceptionGroupView> exceptionGroups() {
        return jdbc.query("SELECT g.exception_group, g.exception_class, g.fingerprint,"
                        + " SUM(CASE WHEN c.status = 'OPEN' THEN c.incidents ELSE 0 END) AS open_incidents, SUM(c.incidents) AS incidents"
                        + " FROM exception_group g JOIN incident_count c ON c.dimension = 'EXCEPTION_GROUP' AND c.value = g.exception_group"
                        + " GROUP BY g.exception_group, g.exception_class, g.fingerprint HAVING SUM(c.incidents) > 0"
                        + " ORDER BY open_incidents DESC, incidents DESC, g.exception_group",
                (row, number) -> new ExceptionGroupView(row.getString("exception_group"), row.getString("exception_class"),
                        row.getString("fingerprint"), row.getLong("open_incidents"), row.getLong("incidents")));
    }

    /** Incidents with {@code value} in {@code dimension} (any value when null) and {@code status} (any when null). */
    long total(CountIncidentsQuery.Dimension dimension, String value, IncidentStatus status) {
        Long total = jdbc.queryForObject("SELECT COALESCE(SUM(incidents), 0) FROM incident_count WHERE dimension = ?"
                        + " AND (? IS NULL OR value = ?) AND (? IS NULL OR status = ?)", Long.class, dimension.name(), value, value,
                status == null ? null : status.name(), status == null ? null : status.name());
        return total == null ? 0 : total;
    }

    void reset() {
        jdbc.update("DELETE FROM incident_count");
        jdbc.update("DELETE FROM exception_group");
    }
}

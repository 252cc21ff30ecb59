package io.dlqdesk.projections.incident;

import io.dlqdesk.domain.api.IncidentStatus;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import java.util.List;

/**
 * The incident counts and exception groups tables, written by the incident-summary projection in its
 * own transaction: an incident adds one to each of its dimensions under its status, and a status
 * change moves that one.
 */
@Component
class IncidentCounts {

    private final JdbcTemplate jdbc;

    IncidentCounts(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    void opened(IncidentSummaryEntity incident, ExceptionGroup group) {
        jdbc.update("INSERT INTO exception_group (exception_group, exception_class, fingerprint) VALUES (?, ?, ?) "
                + "ON DUPLICATE KEY UPDATE exception_group = exception_group", group.id(), group.exceptionClass(), group.fingerprint());
        add(incident, incident.status(), 1);
    }

    void statusChanged(IncidentSummaryEntity incident, IncidentStatus from, IncidentStatus to) {
        add(incident, from, -1);
        add(incident, to, 1);
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

    private void add(IncidentSummaryEntity incident, IncidentStatus status, int delta) {
        String[][] dimensions = {
                {CountIncidentsQuery.Dimension.TOPIC.name(), incident.topic()},
                {CountIncidentsQuery.Dimension.CONSUMER_GROUP.name(), incident.consumerGroup()},
                {CountIncidentsQuery.Dimension.STATUS.name(), status.name()},
                {CountIncidentsQuery.Dimension.EXCEPTION_GROUP.name(), incident.exceptionGroup()}};
        jdbc.batchUpdate("INSERT INTO incident_count (dimension, value, status, incidents) VALUES (?, ?, ?, ?) "
                        + "ON DUPLICATE KEY UPDATE incidents = incidents + VALUES(incidents)",
                List.of(dimensions).stream().map(d -> new Object[] {d[0], d[1], status.name(), delta}).toList());
    }
}

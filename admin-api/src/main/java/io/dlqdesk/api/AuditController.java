package io.dlqdesk.api;

import io.dlqdesk.domain.InvalidValueException;
import io.dlqdesk.projections.asof.AsOfCursor;
import io.dlqdesk.projections.asof.FindIncidentsAsOfQuery;
import io.dlqdesk.projections.asof.IncidentsAsOfPage;
import io.dlqdesk.projections.history.AuditPage;
import io.dlqdesk.projections.history.ListAuditQuery;
import io.dlqdesk.projections.incident.CountIncidentsQuery;
import io.dlqdesk.projections.incident.ExceptionGroupView;
import io.dlqdesk.projections.incident.IncidentCount;
import io.dlqdesk.projections.incident.ListExceptionGroupsQuery;
import org.axonframework.messaging.responsetypes.ResponseTypes;
import org.axonframework.queryhandling.QueryGateway;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** Overviews and the audit: incident counts, exception groups, operator actions, the ledger as it stood at an instant. */
@RestController
public class AuditController {

    private final QueryGateway queries;

    public AuditController(QueryGateway queries) {
        this.queries = queries;
    }

    /** Incidents per value of {@code by} (topic, consumer-group, status, exception-group) and status; each incident counts once. */
    @GetMapping("/api/v1/incident-counts")
    public List<IncidentCount> counts(@RequestParam(defaultValue = "topic") String by) {
        return queries.query(new CountIncidentsQuery(dimension(by)), ResponseTypes.multipleInstancesOf(IncidentCount.class)).join();
    }

    @GetMapping("/api/v1/exception-groups")
    public List<ExceptionGroupView> exceptionGroups() {
        return queries.query(new ListExceptionGroupsQuery(), ResponseTypes.multipleInstancesOf(ExceptionGroupView.class)).join();
    }

    /** Operator actions on incidents, newest first. */
    @GetMapping("/api/v1/audit")
    public AuditPage audit(@RequestParam(required = false) String principal, @RequestParam(required = false) Instant from,
                           @RequestParam(required = false) Instant to, @RequestParam(defaultValue = "0") int page,
                           @RequestParam(defaultValue = "50") int size) {
        return queries.query(new ListAuditQuery(principal, from, to, page, size), AuditPage.class).join();
    }

    /**
     * The incidents and their statuses as they stood at {@code at}, as the events recorded up to then say, newest status
     * first, a page at a time ({@code after} = the previous page's {@code next}); from a read model of status intervals,
     * so a page costs the same however long the history.
     */
    @GetMapping("/api/v1/audit/incidents-as-of")
    public IncidentsAsOfPage incidentsAsOf(@RequestParam Instant at, @RequestParam(required = false) String after,
                                           @RequestParam(defaultValue = "100") int size, @RequestParam(required = false) String page) {
        if (page != null) {
            throw new InvalidValueException("incidents-as-of pages by cursor: pass the previous page's 'next' as 'after' instead of 'page'");
        }
        return queries.query(new FindIncidentsAsOfQuery(at, after == null ? null : AsOfCursor.of(after), size), IncidentsAsOfPage.class)
                .join();
    }

    private static CountIncidentsQuery.Dimension dimension(String by) {
        try {
            return CountIncidentsQuery.Dimension.valueOf(by.toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            throw new InvalidValueException("'by' must be one of " + Arrays.stream(CountIncidentsQuery.Dimension.values())
                    .map(value -> value.name().toLowerCase(Locale.ROOT).replace('_', '-')).toList() + ", was '" + by + "'");
        }
    }
}

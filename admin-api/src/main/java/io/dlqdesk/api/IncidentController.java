package io.dlqdesk.api;

import io.dlqdesk.domain.api.IncidentId;
import io.dlqdesk.domain.api.IncidentStatus;
import io.dlqdesk.projections.incident.FindIncidentSummaryQuery;
import io.dlqdesk.projections.incident.IncidentPage;
import io.dlqdesk.projections.incident.IncidentSummaryView;
import io.dlqdesk.projections.incident.ListIncidentsQuery;
import org.axonframework.messaging.responsetypes.ResponseTypes;
import org.axonframework.queryhandling.QueryGateway;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.util.Optional;

/** Reading incidents: the list with filters and paging, and one incident. */
@RestController
@RequestMapping("/api/v1/incidents")
public class IncidentController {

    private final QueryGateway queries;

    public IncidentController(QueryGateway queries) {
        this.queries = queries;
    }

    @GetMapping
    public IncidentPage list(@RequestParam(required = false) String topic, @RequestParam(name = "group", required = false) String group,
                             @RequestParam(required = false) IncidentStatus status, @RequestParam(defaultValue = "0") int page,
                             @RequestParam(defaultValue = "50") int size) {
        return queries.query(new ListIncidentsQuery(topic, group, status, page, size), IncidentPage.class).join();
    }

    /** The id must be exactly an incident id: anything else is a 400, never a lookup. */
    @GetMapping("/{id}")
    public IncidentSummaryView detail(@PathVariable String id) {
        IncidentId incidentId = IncidentId.parse(id);
        Optional<IncidentSummaryView> incident = queries.query(new FindIncidentSummaryQuery(incidentId),
                ResponseTypes.optionalInstanceOf(IncidentSummaryView.class)).join();
        return incident.orElseThrow(() -> new NotFoundException("no incident " + incidentId));
    }
}

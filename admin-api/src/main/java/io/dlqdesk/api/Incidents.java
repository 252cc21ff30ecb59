package io.dlqdesk.api;

import io.dlqdesk.domain.api.IncidentId;
import io.dlqdesk.domain.api.OperatorAction;
import io.dlqdesk.projections.incident.FindIncidentSummaryQuery;
import io.dlqdesk.projections.incident.IncidentSummaryView;
import org.axonframework.messaging.responsetypes.ResponseTypes;
import org.axonframework.queryhandling.QueryGateway;
import org.springframework.security.core.Authentication;

import java.time.Clock;

/** What the controllers share: finding an incident in the read model, and the action a request records. */
final class Incidents {

    private Incidents() {
    }

    /** The incident's summary; a 404 problem when the read model does not have it. */
    static IncidentSummaryView summary(QueryGateway queries, IncidentId incidentId) {
        return queries.query(new FindIncidentSummaryQuery(incidentId), ResponseTypes.optionalInstanceOf(IncidentSummaryView.class)).join()
                .orElseThrow(() -> new NotFoundException("no incident " + incidentId + " (a new incident is listed within seconds)"));
    }

    /** The authenticated caller (never a body field), the reason given (missing counts as blank, which is refused), now. */
    static OperatorAction action(Authentication caller, String reason, Clock clock) {
        return new OperatorAction(caller.getName(), reason == null ? "" : reason, clock.instant());
    }
}

package io.dlqdesk.api;

import io.dlqdesk.domain.api.IncidentId;
import io.dlqdesk.domain.api.OperatorAction;
import io.dlqdesk.domain.api.RecordLocation;
import io.dlqdesk.domain.api.ReplayOutcome;
import io.dlqdesk.projections.incident.FindIncidentSummaryQuery;
import io.dlqdesk.projections.incident.IncidentSummaryView;
import io.dlqdesk.replay.request.ReplayRequester;
import org.axonframework.messaging.responsetypes.ResponseTypes;
import org.axonframework.queryhandling.QueryGateway;
import org.springframework.security.core.Authentication;

import java.time.Clock;

/** What the controllers (REST and console) share: finding an incident in the read model, and the action a request records. */
public final class Incidents {

    private Incidents() {
    }

    /** The incident's summary; a 404 problem when the read model does not have it. */
    public static IncidentSummaryView summary(QueryGateway queries, IncidentId incidentId) {
        return queries.query(new FindIncidentSummaryQuery(incidentId), ResponseTypes.optionalInstanceOf(IncidentSummaryView.class)).join()
                .orElseThrow(() -> new NotFoundException("no incident " + incidentId + " (a new incident is listed within seconds)"));
    }

    /**
     * Asks for a replay of the incident's record at the location the read model recorded: the attempt, or every failed
     * condition (recorded on the incident too). A 404 problem for an unknown incident.
     */
    public static ReplayOutcome requestReplay(QueryGateway queries, ReplayRequester requester, IncidentId incidentId, OperatorAction action) {
        IncidentSummaryView incident = summary(queries, incidentId);
        return requester.request(incidentId, new RecordLocation(incident.topic(), incident.partition(), incident.offset()), action);
    }

    /** The authenticated caller (never a body field), the reason given (missing counts as blank, which is refused), now. */
    public static OperatorAction action(Authentication caller, String reason, Clock clock) {
        return new OperatorAction(caller.getName(), reason == null ? "" : reason, clock.instant());
    }
}

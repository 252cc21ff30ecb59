package io.dlqdesk.operations.incident;

import io.dlqdesk.domain.InvalidValueException;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.IncidentStatus;
import io.dlqdesk.domain.record.RecordKey;
import io.dlqdesk.operations.NotFoundException;
import io.dlqdesk.projections.history.FindIncidentHistoryQuery;
import io.dlqdesk.projections.history.HistoryEntry;
import io.dlqdesk.projections.incident.FindIncidentSummaryQuery;
import io.dlqdesk.projections.incident.IncidentPage;
import io.dlqdesk.projections.incident.IncidentSummaryView;
import io.dlqdesk.projections.incident.ListIncidentsQuery;
import org.axonframework.messaging.responsetypes.ResponseTypes;
import org.axonframework.queryhandling.QueryGateway;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/** Incidents as the read models hold them: the list, one incident, its history and its detail. */
public class IncidentReads {

    private final QueryGateway queries;

    public IncidentReads(QueryGateway queries) {
        this.queries = queries;
    }

    /** Which incidents to list; a {@code null} field does not filter. */
    public record Filter(String topic, String consumerGroup, IncidentStatus status, String exceptionGroup, Instant detectedFrom,
                         Instant detectedTo, String eventId, RecordKey key) {
    }

    /** One incident with its detail and its whole history, as a page that shows both reads them. */
    public record WithHistory(IncidentDetail detail, List<HistoryEntry> history) {
    }

    /** A page of the list, newest first; the query refuses a page beyond {@link io.dlqdesk.domain.PageBounds}. */
    public IncidentPage list(Filter filter, int page, int size) {
        return queries.query(new ListIncidentsQuery(filter.topic(), filter.consumerGroup(), filter.status(), filter.exceptionGroup(),
                filter.detectedFrom(), filter.detectedTo(), filter.eventId(), filter.key(), page, size), IncidentPage.class).join();
    }

    /** The incident's summary, if the read model has it. */
    public Optional<IncidentSummaryView> find(IncidentId incidentId) {
        return queries.query(new FindIncidentSummaryQuery(incidentId), ResponseTypes.optionalInstanceOf(IncidentSummaryView.class)).join();
    }

    /** The incident's summary; a 404 problem when the read model does not have it. */
    public IncidentSummaryView summary(IncidentId incidentId) {
        return find(incidentId).orElseThrow(() -> new NotFoundException("no incident " + incidentId + " (a new incident is listed within seconds)"));
    }

    /** Every change of a known incident, oldest first; a 404 problem for an unknown one, not an empty history. */
    public List<HistoryEntry> history(IncidentId incidentId) {
        summary(incidentId);
        return historyOf(incidentId);
    }

    /** The incident with its failures and replay attempts. */
    public IncidentDetail detail(IncidentId incidentId) {
        return withHistory(incidentId).detail();
    }

    /** The detail and the history of a known incident; a 404 problem for an unknown one. */
    public WithHistory withHistory(IncidentId incidentId) {
        IncidentSummaryView incident = summary(incidentId);
        List<HistoryEntry> history = historyOf(incidentId);
        return new WithHistory(IncidentDetail.of(incident, history), history);
    }

    private List<HistoryEntry> historyOf(IncidentId incidentId) {
        return queries.query(new FindIncidentHistoryQuery(incidentId), ResponseTypes.multipleInstancesOf(HistoryEntry.class)).join();
    }

    /**
     * The record key searched for: {@code key} as UTF-8 text, or {@code keyHex} as its bytes in hex (for binary keys); not both.
     */
    public static RecordKey recordKey(String key, String keyHex) {
        if (key != null && keyHex != null) {
            throw new InvalidValueException("give the key as 'key' (UTF-8 text) or as 'keyHex' (its bytes in hex), not both");
        }
        if (key != null) {
            return key.isEmpty() ? null : RecordKey.of(key.getBytes(StandardCharsets.UTF_8));
        }
        if (keyHex == null || keyHex.isEmpty()) {
            return null;
        }
        try {
            return RecordKey.of(HexFormat.of().parseHex(keyHex));
        } catch (IllegalArgumentException e) {
            throw new InvalidValueException("'keyHex' must be an even number of hex digits, was '" + keyHex + "'");
        }
    }
}

package io.dlqdesk.api;

import io.dlqdesk.domain.api.IncidentId;
import io.dlqdesk.domain.api.IncidentStatus;
import io.dlqdesk.domain.api.PublishStatus;
import io.dlqdesk.domain.api.RecordKey;
import io.dlqdesk.projections.history.FindIncidentHistoryQuery;
import io.dlqdesk.projections.history.HistoryEntry;
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

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Reading incidents: the list with filters and paging, one incident with its failures and attempts, its history. */
@RestController
@RequestMapping("/api/v1/incidents")
public class IncidentController {

    private static final Set<String> FAILURE_EVENTS = Set.of("IncidentOpened", "RetryFailureCorrelated");

    private final QueryGateway queries;

    public IncidentController(QueryGateway queries) {
        this.queries = queries;
    }

    /** One replay attempt: who asked and why, and how publishing it ended (REQUESTED while undecided). */
    public record AttemptView(int attempt, String requestedBy, String reason, Instant requestedAt, PublishStatus publishStatus,
                              String outcome, Instant decidedAt) {
    }

    /** An incident with every failure that belongs to it and every replay attempt. */
    public record IncidentDetail(IncidentSummaryView incident, List<HistoryEntry> failures, List<AttemptView> attempts) {

        /** The failures and attempts as the incident's history tells them (the console shows the same). */
        public static IncidentDetail of(IncidentSummaryView incident, List<HistoryEntry> history) {
            return new IncidentDetail(incident, history.stream().filter(entry -> FAILURE_EVENTS.contains(entry.eventType())).toList(),
                    IncidentController.attempts(history));
        }
    }

    @GetMapping
    public IncidentPage list(@RequestParam(required = false) String topic, @RequestParam(name = "group", required = false) String group,
                             @RequestParam(required = false) IncidentStatus status,
                             @RequestParam(required = false) String exceptionGroup,
                             @RequestParam(required = false) Instant detectedFrom, @RequestParam(required = false) Instant detectedTo,
                             @RequestParam(required = false) String eventId, @RequestParam(required = false) String key,
                             @RequestParam(required = false) String keyHex,
                             @RequestParam(defaultValue = "0") int page, @RequestParam(defaultValue = "50") int size) {
        PageBounds.require(page, size);
        return queries.query(new ListIncidentsQuery(topic, group, status, exceptionGroup, detectedFrom, detectedTo, blankAsNull(eventId),
                recordKey(key, keyHex), page, size), IncidentPage.class).join();
    }

    /**
     * The record key searched for: {@code key} as UTF-8 text, or {@code keyHex} as its bytes in hex (for binary keys); not both.
     */
    public static RecordKey recordKey(String key, String keyHex) {
        if (key != null && keyHex != null) {
            throw new IllegalArgumentException("give the key as 'key' (UTF-8 text) or as 'keyHex' (its bytes in hex), not both");
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
            throw new IllegalArgumentException("'keyHex' must be an even number of hex digits, was '" + keyHex + "'");
        }
    }

    private static String blankAsNull(String value) {
        return value == null || value.isEmpty() ? null : value;
    }

    /** The id must be exactly an incident id: anything else is a 400, never a lookup. */
    @GetMapping("/{id}")
    public IncidentDetail detail(@PathVariable String id) {
        IncidentId incidentId = IncidentId.parse(id);
        IncidentSummaryView incident = summary(incidentId);
        return IncidentDetail.of(incident, history(incidentId));
    }

    /** Every change of the incident, oldest first: failures, replays and their results, operator actions with who and why. */
    @GetMapping("/{id}/history")
    public List<HistoryEntry> history(@PathVariable String id) {
        IncidentId incidentId = IncidentId.parse(id);
        summary(incidentId); // 404 for an unknown incident, not an empty history
        return history(incidentId);
    }

    private IncidentSummaryView summary(IncidentId incidentId) {
        return Incidents.summary(queries, incidentId);
    }

    private List<HistoryEntry> history(IncidentId incidentId) {
        return queries.query(new FindIncidentHistoryQuery(incidentId), ResponseTypes.multipleInstancesOf(HistoryEntry.class)).join();
    }

    private static List<AttemptView> attempts(List<HistoryEntry> history) {
        Map<Integer, AttemptView> attempts = new LinkedHashMap<>();
        for (HistoryEntry entry : history) {
            if (entry.attempt() == null || entry.publishStatus() == null) {
                continue;
            }
            if (entry.publishStatus() == PublishStatus.REQUESTED) {
                attempts.put(entry.attempt(), new AttemptView(entry.attempt(), entry.principal(), entry.reason(), entry.occurredAt(),
                        PublishStatus.REQUESTED, null, null));
            } else {
                attempts.computeIfPresent(entry.attempt(), (number, requested) -> new AttemptView(number, requested.requestedBy(),
                        requested.reason(), requested.requestedAt(), entry.publishStatus(), entry.detail(), entry.occurredAt()));
            }
        }
        return List.copyOf(attempts.values());
    }
}

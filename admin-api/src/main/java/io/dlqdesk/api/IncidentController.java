package io.dlqdesk.api;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.IncidentStatus;
import io.dlqdesk.operations.incident.IncidentDetail;
import io.dlqdesk.operations.incident.IncidentReads;
import io.dlqdesk.projections.history.HistoryEntry;
import io.dlqdesk.projections.incident.IncidentPage;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.time.Instant;
import java.util.List;

/** Reading incidents: the list with filters and paging, one incident with its failures and attempts, its history. */
@RestController
@RequestMapping("/api/v1/incidents")
public class IncidentController {

    private final IncidentReads incidents;

    public IncidentController(IncidentReads incidents) {
        this.incidents = incidents;
    }

    @GetMapping
    public IncidentPage list(@RequestParam(required = false) String topic, @RequestParam(name = "group", required = false) String group,
                             @RequestParam(required = false) IncidentStatus status,
                             @RequestParam(required = false) String exceptionGroup,
                             @RequestParam(required = false) Instant detectedFrom, @RequestParam(required = false) Instant detectedTo,
                             @RequestParam(required = false) String eventId, @RequestParam(required = false) String key,
                             @RequestParam(required = false) String keyHex,
                             @RequestParam(defaultValue = "0") int page, @RequestParam(defaultValue = "50") int size) {
        return incidents.list(new IncidentReads.Filter(topic, group, status, exceptionGroup, detectedFrom, detectedTo, blankAsNull(eventId),
                IncidentReads.recordKey(key, keyHex)), page, size);
    }

    private static String blankAsNull(String value) {
        return value == null || value.isEmpty() ? null : value;
    }

    /** The id must be exactly an incident id: anything else is a 400, never a lookup. */
    @GetMapping("/{id}")
    public IncidentDetail detail(@PathVariable String id) {
        return incidents.detail(IncidentId.parse(id));
    }

    /** Every change of the incident, oldest first: failures, replays and their results, operator actions with who and why. */
    @GetMapping("/{id}/history")
    public List<HistoryEntry> history(@PathVariable String id) {
        return incidents.history(IncidentId.parse(id));
    }
}

package io.dlqdesk.api;

import io.dlqdesk.domain.InvalidValueException;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.IncidentStatus;
import io.dlqdesk.operations.export.IncidentExports;
import io.dlqdesk.operations.incident.IncidentDetail;
import io.dlqdesk.operations.incident.IncidentReads;
import io.dlqdesk.projections.history.HistoryEntry;
import io.dlqdesk.projections.incident.IncidentPage;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.time.Instant;
import java.util.List;

/**
 * Reading incidents: the list with filters and paging, its export, one incident with its failures and attempts, its
 * history.
 */
@RestController
@RequestMapping("/api/v1/incidents")
public class IncidentController {

    private final IncidentReads incidents;
    private final IncidentExports exports;

    public IncidentController(IncidentReads incidents, IncidentExports exports) {
        this.incidents = incidents;
        this.exports = exports;
    }

    @GetMapping
    public IncidentPage list(@RequestParam(required = false) String topic, @RequestParam(name = "group", required = false) String group,
                             @RequestParam(required = false) IncidentStatus status,
                             @RequestParam(required = false) String exceptionGroup,
                             @RequestParam(required = false) Instant detectedFrom, @RequestParam(required = false) Instant detectedTo,
                             @RequestParam(required = false) String eventId, @RequestParam(required = false) String key,
                             @RequestParam(required = false) String keyHex,
                             @RequestParam(defaultValue = "0") int page, @RequestParam(defaultValue = "50") int size) {
        return incidents.list(filter(topic, group, status, exceptionGroup, detectedFrom, detectedTo, eventId, key, keyHex), page, size);
    }

    /**
     * Every incident the list's filters match (the same parameters, read and checked the same way), newest first, with the
     * list's fields, streamed as {@code format=csv} or {@code ndjson}; {@code X-Total-Count} says how many follow. No paging:
     * {@code page} or {@code size} is a 400. HEAD counts without reading them.
     */
    @GetMapping("/export")
    public void export(@RequestParam(required = false) String format,
                       @RequestParam(required = false) String topic, @RequestParam(name = "group", required = false) String group,
                       @RequestParam(required = false) IncidentStatus status,
                       @RequestParam(required = false) String exceptionGroup,
                       @RequestParam(required = false) Instant detectedFrom, @RequestParam(required = false) Instant detectedTo,
                       @RequestParam(required = false) String eventId, @RequestParam(required = false) String key,
                       @RequestParam(required = false) String keyHex,
                       @RequestParam(required = false) String page, @RequestParam(required = false) String size,
                       Authentication caller, HttpServletRequest request, HttpServletResponse response) {
        if (page != null || size != null) {
            throw new InvalidValueException("an export has no pages: it holds every incident the filters match (up to dlqdesk.export.max-rows);"
                    + " leave out 'page' and 'size'");
        }
        exports.export(filter(topic, group, status, exceptionGroup, detectedFrom, detectedTo, eventId, key, keyHex), format,
                caller.getName(), request, response);
    }

    private static IncidentReads.Filter filter(String topic, String group, IncidentStatus status, String exceptionGroup, Instant detectedFrom,
                                               Instant detectedTo, String eventId, String key, String keyHex) {
        return new IncidentReads.Filter(topic, group, status, exceptionGroup, detectedFrom, detectedTo, blankAsNull(eventId),
                IncidentReads.recordKey(key, keyHex));
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

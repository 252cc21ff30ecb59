package io.dlqdesk.console.web;

import io.dlqdesk.console.record.DlqRecords;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.IncidentStatus;
import io.dlqdesk.domain.record.RecordLocation;
import io.dlqdesk.domain.replay.PublishStatus;
import io.dlqdesk.operations.NotFoundException;
import io.dlqdesk.domain.PageBounds;
import io.dlqdesk.operations.export.IncidentExports;
import io.dlqdesk.operations.incident.IncidentDetail;
import io.dlqdesk.operations.incident.IncidentReads;
import io.dlqdesk.operations.replay.IncidentEdits;
import io.dlqdesk.projections.edit.ReplayEditView;
import io.dlqdesk.projections.history.HistoryEntry;
import io.dlqdesk.projections.incident.IncidentPage;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.security.core.Authentication;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.util.UriComponentsBuilder;

import java.util.List;
import java.util.Map;

/**
 * The incident list (every filter of {@code GET /api/v1/incidents}, eventId and key search, paging, newest first) with its
 * export, and one incident: summary, failures, attempts, history, actions, and its DLQ record read on demand.
 */
@Controller
public class IncidentPages {

    static final int PAGE_SIZE = 50;

    private final IncidentReads incidents;
    private final IncidentExports exports;
    private final DlqRecords records;
    private final IncidentEdits edits;

    IncidentPages(IncidentReads incidents, IncidentExports exports, DlqRecords records, IncidentEdits edits) {
        this.incidents = incidents;
        this.exports = exports;
        this.records = records;
        this.edits = edits;
    }

    /** The filter as the form shows it (blank fields: no filter). */
    public record Filter(String topic, String group, String status, String exceptionGroup, String detectedFrom, String detectedTo,
                         String eventId, String key, String keyHex) {

        /** This filter's list URL at {@code page}. */
        public String url(int page) {
            UriComponentsBuilder url = filtered(UriComponentsBuilder.fromPath("/console/incidents"));
            if (page > 0) {
                url.queryParam("page", page);
            }
            return url.encode().build().toUriString();
        }

        /** The export of every incident this filter matches, as {@code csv} or {@code ndjson}. */
        public String exportUrl(String format) {
            return filtered(UriComponentsBuilder.fromPath("/console/incidents/export").queryParam("format", format)).encode().build().toUriString();
        }

        private UriComponentsBuilder filtered(UriComponentsBuilder url) {
            add(url, "topic", topic);
            add(url, "group", group);
            add(url, "status", status);
            add(url, "exceptionGroup", exceptionGroup);
            add(url, "detectedFrom", detectedFrom);
            add(url, "detectedTo", detectedTo);
            add(url, "eventId", eventId);
            add(url, "key", key);
            add(url, "keyHex", keyHex);
            return url;
        }

        private static void add(UriComponentsBuilder url, String name, String value) {
            if (FormValues.text(value) != null) {
                url.queryParam(name, value);
            }
        }
    }

    @GetMapping("/console/incidents")
    String list(@RequestParam(required = false) String topic, @RequestParam(required = false) String group,
                @RequestParam(required = false) String status, @RequestParam(required = false) String exceptionGroup,
                @RequestParam(required = false) String detectedFrom, @RequestParam(required = false) String detectedTo,
                @RequestParam(required = false) String eventId, @RequestParam(required = false) String key,
                @RequestParam(required = false) String keyHex, @RequestParam(defaultValue = "0") int page, Model model) {
        Filter filter = new Filter(topic, group, status, exceptionGroup, detectedFrom, detectedTo, eventId, key, keyHex);
        model.addAttribute("filter", filter);
        model.addAttribute("statuses", IncidentStatus.values());
        IncidentPage found = incidents.list(read(filter), page, PAGE_SIZE);
        model.addAttribute("incidents", found);
        long pages = Math.max(1, (found.total() + PAGE_SIZE - 1) / PAGE_SIZE);
        model.addAttribute("pages", pages);
        model.addAttribute("hasNext", (long) (page + 1) * PAGE_SIZE < found.total() && (long) (page + 1) * PAGE_SIZE <= PageBounds.MAX_OFFSET);
        return "console/incidents";
    }

    /**
     * The list's export with the page's filters (its "Export CSV" and "Export NDJSON" links): every incident they match,
     * newest first, streamed as a download; refusals (a bad filter, too many incidents, too many exports) are pages.
     */
    @GetMapping("/console/incidents/export")
    void export(@RequestParam(required = false) String format, @RequestParam(required = false) String topic,
                @RequestParam(required = false) String group, @RequestParam(required = false) String status,
                @RequestParam(required = false) String exceptionGroup, @RequestParam(required = false) String detectedFrom,
                @RequestParam(required = false) String detectedTo, @RequestParam(required = false) String eventId,
                @RequestParam(required = false) String key, @RequestParam(required = false) String keyHex, Authentication caller,
                HttpServletRequest request, HttpServletResponse response) {
        Filter filter = new Filter(topic, group, status, exceptionGroup, detectedFrom, detectedTo, eventId, key, keyHex);
        exports.export(read(filter), format, caller.getName(), request, response);
    }

    /** The form's filter as the API reads its parameters: blank is no filter, times are UTC. */
    private static IncidentReads.Filter read(Filter form) {
        return new IncidentReads.Filter(FormValues.text(form.topic()), FormValues.text(form.group()), FormValues.status(form.status()),
                FormValues.text(form.exceptionGroup()), FormValues.instant("detectedFrom", form.detectedFrom()),
                FormValues.instant("detectedTo", form.detectedTo()), FormValues.text(form.eventId()),
                IncidentReads.recordKey(form.key() == null || form.key().isEmpty() ? null : form.key(),
                        form.keyHex() == null || form.keyHex().isBlank() ? null : form.keyHex().strip()));
    }

    /**
     * One incident. Right after an action the read model may not show its effect yet (it follows the event store within
     * moments): the action's answer names what to expect, and the page's live part polls until it shows.
     */
    @GetMapping("/console/incidents/{id}")
    String incident(@PathVariable String id, Authentication caller, Model model) {
        Map<String, Object> flash = model.asMap();
        show(id, (IncidentStatus) flash.get("expectStatus"), (Integer) flash.get("expectAttempt"), model);
        showEdits(IncidentId.parse(id), (Integer) flash.get("expectEdit"), (Integer) flash.get("expectApprovedEdit"), caller, model);
        return "console/incident";
    }

    /** The edits again, polled while a proposal or an approval just made is not in the read model yet. */
    @GetMapping("/console/incidents/{id}/edits-live")
    String editsLive(@PathVariable String id, @RequestParam(required = false) Integer expectEdit,
                     @RequestParam(required = false) Integer expectApprovedEdit, Authentication caller, Model model) {
        showEdits(IncidentId.parse(id), expectEdit, expectApprovedEdit, caller, model);
        return "console/incident :: edits";
    }

    /** Its edits, side by side with the source record; the proposer is not offered the approval of their own edit. */
    private void showEdits(IncidentId incidentId, Integer expectEdit, Integer expectApprovedEdit, Authentication caller, Model model) {
        List<ReplayEditView> shown = edits.list(incidentId);
        boolean waiting = expectEdit != null && shown.size() < expectEdit
                || expectApprovedEdit != null && shown.stream().noneMatch(edit -> edit.edit() == expectApprovedEdit && edit.approved());
        model.addAttribute("incidentId", incidentId.value());
        model.addAttribute("edits", shown);
        model.addAttribute("principal", caller.getName());
        model.addAttribute("editsWaiting", waiting);
        model.addAttribute("editsUrl", UriComponentsBuilder.fromPath("/console/incidents/{id}/edits-live")
                .queryParamIfPresent("expectEdit", java.util.Optional.ofNullable(waiting ? expectEdit : null))
                .queryParamIfPresent("expectApprovedEdit", java.util.Optional.ofNullable(waiting ? expectApprovedEdit : null))
                .buildAndExpand(incidentId.value()).toUriString());
    }

    /** Status, attempts and history again, polled while an attempt waits for its publish result or an action's effect is not shown yet. */
    @GetMapping("/console/incidents/{id}/live")
    String live(@PathVariable String id, @RequestParam(required = false) IncidentStatus expectStatus,
                @RequestParam(required = false) Integer expectAttempt, @RequestParam(required = false) String part, Model model) {
        show(id, expectStatus, expectAttempt, model);
        return "history".equals(part) ? "console/incident :: history" : "console/incident :: live";
    }

    private void show(String id, IncidentStatus expectStatus, Integer expectAttempt, Model model) {
        IncidentId incidentId = IncidentId.parse(id);
        IncidentReads.WithHistory shown = incidents.withHistory(incidentId);
        IncidentDetail detail = shown.detail();
        model.addAttribute("detail", detail);
        model.addAttribute("history", shown.history());
        boolean expecting = expectStatus != null && detail.incident().status() != expectStatus
                || expectAttempt != null && detail.attempts().stream().noneMatch(attempt -> attempt.attempt() >= expectAttempt);
        model.addAttribute("waiting", expecting || waiting(detail));
        model.addAttribute("liveUrl", UriComponentsBuilder.fromPath("/console/incidents/{id}/live")
                .queryParamIfPresent("expectStatus", java.util.Optional.ofNullable(expecting ? expectStatus : null))
                .queryParamIfPresent("expectAttempt", java.util.Optional.ofNullable(expecting ? expectAttempt : null))
                .buildAndExpand(incidentId.value()).toUriString());
    }

    /** The root failure's DLQ record, read from its topic when asked for (not with every page view). */
    @GetMapping("/console/incidents/{id}/record")
    String record(@PathVariable String id, Model model) {
        IncidentId incidentId = IncidentId.parse(id);
        var incident = incidents.summary(incidentId);
        RecordLocation dlq = new RecordLocation(incident.dlqTopic(), incident.dlqPartition(), incident.dlqOffset());
        model.addAttribute("lookup", records.read(dlq));
        model.addAttribute("location", dlq);
        return "console/record :: record";
    }

    /** The propose dialog's value box, starting from the source record's value (read from its topic when the dialog opens). */
    @GetMapping("/console/incidents/{id}/edit-value")
    String editValue(@PathVariable String id, Model model) {
        var incident = incidents.summary(IncidentId.parse(id));
        model.addAttribute("lookup", records.read(new RecordLocation(incident.topic(), incident.partition(), incident.offset())));
        return "console/edit-value :: edit-value";
    }

    /** One failure's own DLQ record (a re-failure's, say), by its place in the history; 404 for a change that is not a failure. */
    @GetMapping("/console/incidents/{id}/failures/{sequence}/record")
    String failureRecord(@PathVariable String id, @PathVariable long sequence, Model model) {
        IncidentId incidentId = IncidentId.parse(id);
        RecordLocation dlq = incidents.history(incidentId).stream().filter(entry -> entry.sequence() == sequence && entry.dlqRecord() != null)
                .findFirst().map(HistoryEntry::dlqRecord)
                .orElseThrow(() -> new NotFoundException("incident " + incidentId.value() + " has no failure " + sequence + " with a DLQ record"));
        model.addAttribute("lookup", records.read(dlq));
        model.addAttribute("location", dlq);
        model.addAttribute("idPrefix", "failure-" + sequence + "-");
        return "console/record :: record";
    }

    private static boolean waiting(IncidentDetail detail) {
        return detail.attempts().stream().anyMatch(attempt -> attempt.publishStatus() == PublishStatus.REQUESTED);
    }
}

package io.dlqdesk.console.web;

import io.dlqdesk.domain.IncidentCommandRefusedException;
import io.dlqdesk.domain.InvalidValueException;
import io.dlqdesk.domain.incident.AcknowledgeIncidentCommand;
import io.dlqdesk.domain.incident.DiscardIncidentCommand;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.IncidentStatus;
import io.dlqdesk.domain.incident.OperatorAction;
import io.dlqdesk.domain.incident.ResolveIncidentCommand;
import io.dlqdesk.domain.record.BoundedText;
import io.dlqdesk.domain.replay.ReplayOutcome;
import io.dlqdesk.operations.OperatorActions;
import io.dlqdesk.operations.replay.IncidentEdits;
import io.dlqdesk.operations.replay.IncidentReplays;
import io.dlqdesk.replay.edit.EditedContent;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.modelling.command.ConcurrencyException;
import org.springframework.security.core.Authentication;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

/**
 * An incident's actions, sent by the page's forms (each with its CSRF token and a required reason): the same commands and
 * replay request as the REST API, the principal always the signed-in user. Each answers with the incident's page again
 * (post/redirect/get) and says what happened: done, refused by the incident's state (the domain's code and message), or a
 * replay refused with every failed condition in words.
 */
@Controller
public class IncidentActions {

    private final CommandGateway commands;
    private final IncidentReplays replays;
    private final IncidentEdits edits;
    private final Clock clock = Clock.systemUTC();

    IncidentActions(CommandGateway commands, IncidentReplays replays, IncidentEdits edits) {
        this.commands = commands;
        this.replays = replays;
        this.edits = edits;
    }

    @PostMapping("/console/incidents/{id}/acknowledge")
    String acknowledge(@PathVariable String id, @RequestParam(required = false) String reason, Authentication caller, RedirectAttributes flash) {
        return send(id, reason, caller, flash, "Acknowledged.", IncidentStatus.ACKED, AcknowledgeIncidentCommand::new);
    }

    @PostMapping("/console/incidents/{id}/resolve")
    String resolve(@PathVariable String id, @RequestParam(required = false) String reason, Authentication caller, RedirectAttributes flash) {
        return send(id, reason, caller, flash, "Resolved.", IncidentStatus.RESOLVED, ResolveIncidentCommand::new);
    }

    @PostMapping("/console/incidents/{id}/discard")
    String discard(@PathVariable String id, @RequestParam(required = false) String reason, Authentication caller, RedirectAttributes flash) {
        return send(id, reason, caller, flash, "Discarded.", IncidentStatus.DISCARDED, DiscardIncidentCommand::new);
    }

    @PostMapping("/console/incidents/{id}/replay")
    String replay(@PathVariable String id, @RequestParam(required = false) String reason,
                  @RequestParam(defaultValue = "false") boolean overrideStaleKey, @RequestParam(required = false) Integer edit,
                  Authentication caller, RedirectAttributes flash) {
        IncidentId incidentId = IncidentId.parse(id);
        OperatorAction action = action(caller, reason, flash);
        if (action == null) {
            return back(incidentId);
        }
        ReplayOutcome outcome = replays.request(incidentId, action, overrideStaleKey, edit);
        if (outcome.attempt() != null) {
            flash.addFlashAttribute("done", "Replay requested as attempt " + outcome.attempt() + "; its publish status follows below.");
            flash.addFlashAttribute("expectAttempt", outcome.attempt());
        } else {
            flash.addFlashAttribute("refused", "The replay was refused (and the refusal recorded in the history):");
            flash.addFlashAttribute("refusals", RefusalWords.of(outcome.refusals()));
            if (outcome.keyFreshness() != null && outcome.keyFreshness().detail() != null) {
                flash.addFlashAttribute("keyFreshness", outcome.keyFreshness().detail());
            }
        }
        return back(incidentId);
    }

    /**
     * An editor's proposal: the whole edited value (the form's line breaks sent as LF: browsers send CRLF) and, when the
     * headers box is not blank, every header of the edit, one {@code name: value} per line.
     */
    @PostMapping("/console/incidents/{id}/edits")
    String propose(@PathVariable String id, @RequestParam(required = false) String reason, @RequestParam(required = false) String value,
                   @RequestParam(required = false) String headers, Authentication caller, RedirectAttributes flash) {
        IncidentId incidentId = IncidentId.parse(id);
        OperatorAction action = action(caller, reason, flash);
        if (action == null) {
            return back(incidentId);
        }
        try {
            if (value == null) { // never an empty edit in its place: a form the server did not read whole has no fields
                throw new InvalidValueException("no edited value was received");
            }
            EditedContent content = new EditedContent(lf(value).getBytes(StandardCharsets.UTF_8), headers(headers));
            int edit = edits.propose(incidentId, content, action).edit();
            flash.addFlashAttribute("done", "Edit " + edit + " proposed; a second person with the APPROVER role approves it before it can be replayed.");
            flash.addFlashAttribute("expectEdit", edit);
        } catch (InvalidValueException e) {
            flash.addFlashAttribute("refused", "Nothing was proposed: " + e.getMessage() + ".");
        } catch (IncidentCommandRefusedException e) {
            refused(flash, e);
        }
        return back(incidentId);
    }

    @PostMapping("/console/incidents/{id}/edits/{edit}/approve")
    String approveEdit(@PathVariable String id, @PathVariable int edit, @RequestParam(required = false) String reason, Authentication caller,
                       RedirectAttributes flash) {
        IncidentId incidentId = IncidentId.parse(id);
        OperatorAction action = action(caller, reason, flash);
        if (action == null) {
            return back(incidentId);
        }
        try {
            edits.approve(incidentId, edit, action);
            flash.addFlashAttribute("done", "Edit " + edit + " approved: a replay may now publish it.");
            flash.addFlashAttribute("expectApprovedEdit", edit);
        } catch (IncidentCommandRefusedException e) {
            refused(flash, e);
        }
        return back(incidentId);
    }

    /** Blank: the source record's headers stay. Otherwise one {@code name: value} per line; a line {@code name:} has an empty value. */
    private static List<EditedContent.Header> headers(String lines) {
        if (lines == null || lines.isBlank()) {
            return null;
        }
        List<EditedContent.Header> headers = new ArrayList<>();
        for (String line : lf(lines).split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            int colon = line.indexOf(':');
            if (colon <= 0) {
                throw new InvalidValueException("a header line is 'name: value', not '" + BoundedText.truncate(line, 80) + "'");
            }
            String text = line.substring(colon + 1);
            headers.add(new EditedContent.Header(line.substring(0, colon).strip(),
                    (text.startsWith(" ") ? text.substring(1) : text).getBytes(StandardCharsets.UTF_8)));
        }
        return headers;
    }

    private static String lf(String text) {
        return text.replace("\r\n", "\n");
    }

    @PostMapping("/console/incidents/{id}/attempts/{attempt}/publish-unknown")
    String markPublishUnknown(@PathVariable String id, @PathVariable int attempt, @RequestParam(required = false) String reason,
                              Authentication caller, RedirectAttributes flash) {
        IncidentId incidentId = IncidentId.parse(id);
        OperatorAction action = action(caller, reason, flash);
        if (action == null) {
            return back(incidentId);
        }
        try {
            replays.markPublishUnknown(incidentId, attempt, action);
            flash.addFlashAttribute("done", "Attempt " + attempt + " marked PUBLISH_UNKNOWN.");
        } catch (IncidentCommandRefusedException e) {
            refused(flash, e);
        }
        return back(incidentId);
    }

    private String send(String id, String reason, Authentication caller, RedirectAttributes flash, String done, IncidentStatus becomes,
                        BiFunction<IncidentId, OperatorAction, Object> command) {
        IncidentId incidentId = IncidentId.parse(id);
        OperatorAction action = action(caller, reason, flash);
        if (action == null) {
            return back(incidentId);
        }
        try {
            commands.sendAndWait(command.apply(incidentId, action));
            flash.addFlashAttribute("done", done);
            flash.addFlashAttribute("expectStatus", becomes);
        } catch (IncidentCommandRefusedException e) {
            refused(flash, e);
        } catch (ConcurrencyException e) {
            flash.addFlashAttribute("refused", "The incident was changed at the same moment by someone else: look again and retry.");
        }
        return back(incidentId);
    }

    /** The signed-in user's action; null (and said on the page) when the reason is missing or too long. */
    private OperatorAction action(Authentication caller, String reason, RedirectAttributes flash) {
        try {
            return OperatorActions.of(caller, reason, clock);
        } catch (InvalidValueException e) {
            flash.addFlashAttribute("refused", "Nothing was done: " + e.getMessage() + ".");
            return null;
        }
    }

    private static void refused(RedirectAttributes flash, IncidentCommandRefusedException e) {
        flash.addFlashAttribute("refused", "Refused (" + e.code().name() + "): " + e.getMessage());
    }

    private static String back(IncidentId incidentId) {
        return "redirect:/console/incidents/" + incidentId.value();
    }
}

package io.dlqdesk.api;

import io.dlqdesk.domain.InvalidValueException;
import io.dlqdesk.domain.edit.EditDiff;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.OperatorAction;
import io.dlqdesk.operations.OperatorActions;
import io.dlqdesk.operations.replay.IncidentEdits;
import io.dlqdesk.projections.edit.ReplayEditView;
import io.dlqdesk.replay.edit.EditProposer;
import io.dlqdesk.replay.edit.EditedContent;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Base64;
import java.util.List;

/**
 * Audited edit-and-replay: an editor proposes an edited value and/or headers for an incident's source record (the full diff
 * is recorded), a second person with APPROVER approves it, and an operator replays it by naming it ({@code "edit": n} in the
 * replay request).
 */
@RestController
public class EditController {

    private final IncidentEdits edits;
    private final Clock clock = Clock.systemUTC();

    public EditController(IncidentEdits edits) {
        this.edits = edits;
    }

    /**
     * A header of an edit: its value as UTF-8 {@code value} or as {@code valueBase64} (at most one; neither: a header without
     * a value).
     */
    public record HeaderBody(String name, String value, String valueBase64) {
    }

    /**
     * The proposal: the edited value as UTF-8 {@code value} or {@code valueBase64} (exactly one), the complete edited
     * {@code headers} in order (absent: the source record's headers stay), and why.
     */
    public record ProposalBody(String value, String valueBase64, List<HeaderBody> headers, String reason) {
    }

    /** The recorded edit: its number, the SHA-256 of the edited value, and the diff against the source record. */
    public record Proposed(String incidentId, int edit, String editedValueHash, EditDiff diff) {
    }

    @PostMapping("/api/v1/incidents/{id}/edits")
    public ResponseEntity<Proposed> propose(@PathVariable String id, @RequestBody(required = false) ProposalBody body, Authentication caller) {
        IncidentId incidentId = IncidentId.parse(id);
        if (body == null) {
            throw new InvalidValueException("a body with the edited 'value' (or 'valueBase64') and a 'reason' is required");
        }
        OperatorAction action = OperatorActions.of(caller, body.reason(), clock);
        EditedContent content = new EditedContent(bytes("the edited value", body.value(), body.valueBase64(), true),
                body.headers() == null ? null : body.headers().stream().map(EditController::header).toList());
        EditProposer.Proposal proposal = edits.propose(incidentId, content, action);
        return ResponseEntity.status(HttpStatus.CREATED).body(new Proposed(incidentId.value(), proposal.edit(), content.valueHash().hex(),
                proposal.diff()));
    }

    @GetMapping("/api/v1/incidents/{id}/edits")
    public List<ReplayEditView> list(@PathVariable String id) {
        return edits.list(IncidentId.parse(id));
    }

    /** Four-eyes: never the proposer (409 APPROVER_IS_PROPOSER). */
    @PostMapping("/api/v1/incidents/{id}/edits/{edit}/approve")
    public ResponseEntity<Void> approve(@PathVariable String id, @PathVariable int edit,
                                        @RequestBody(required = false) IncidentCommandController.Reason body, Authentication caller) {
        edits.approve(IncidentId.parse(id), edit, OperatorActions.of(caller, body == null ? null : body.reason(), clock));
        return ResponseEntity.noContent().build();
    }

    private static EditedContent.Header header(HeaderBody header) {
        if (header == null || header.name() == null) {
            throw new InvalidValueException("every header needs a 'name'");
        }
        return new EditedContent.Header(header.name(), bytes("header '" + header.name() + "'", header.value(), header.valueBase64(), false));
    }

    private static byte[] bytes(String what, String text, String base64, boolean required) {
        if (text != null && base64 != null) {
            throw new InvalidValueException(what + ": give 'value' or 'valueBase64', not both");
        }
        if (text != null) {
            return text.getBytes(StandardCharsets.UTF_8);
        }
        if (base64 != null) {
            try {
                return Base64.getDecoder().decode(base64);
            } catch (IllegalArgumentException e) {
                throw new InvalidValueException(what + ": 'valueBase64' is not base64: " + e.getMessage());
            }
        }
        if (required) {
            throw new InvalidValueException(what + " is required, as 'value' (UTF-8 text) or 'valueBase64'");
        }
        return null;
    }
}

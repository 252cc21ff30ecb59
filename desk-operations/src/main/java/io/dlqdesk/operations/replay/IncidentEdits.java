package io.dlqdesk.operations.replay;

import io.dlqdesk.domain.edit.ApproveReplayEditCommand;
import io.dlqdesk.domain.edit.EditDiff;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.OperatorAction;
import io.dlqdesk.domain.record.RecordLocation;
import io.dlqdesk.operations.incident.IncidentReads;
import io.dlqdesk.operations.record.HeaderRedaction;
import io.dlqdesk.projections.edit.FindReplayEditsQuery;
import io.dlqdesk.projections.edit.ReplayEditView;
import io.dlqdesk.projections.incident.IncidentSummaryView;
import io.dlqdesk.replay.edit.EditProposer;
import io.dlqdesk.replay.edit.EditedContent;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.messaging.responsetypes.ResponseTypes;
import org.axonframework.queryhandling.QueryGateway;

import java.util.List;

/** Audited edits of one incident's record, from either front door: proposed by an editor, approved by a second person, listed. */
public class IncidentEdits {

    private final IncidentReads incidents;
    private final EditProposer proposer;
    private final CommandGateway commands;
    private final QueryGateway queries;
    private final HeaderRedaction redaction;

    public IncidentEdits(IncidentReads incidents, EditProposer proposer, CommandGateway commands, QueryGateway queries,
                         HeaderRedaction redaction) {
        this.incidents = incidents;
        this.proposer = proposer;
        this.commands = commands;
        this.queries = queries;
        this.redaction = redaction;
    }

    /**
     * The new edit's number and diff (redacted headers hidden); a 404 problem for an unknown incident, a 409 one for what the
     * incident refuses.
     */
    public EditProposer.Proposal propose(IncidentId incidentId, EditedContent edit, OperatorAction action) {
        IncidentSummaryView incident = incidents.summary(incidentId);
        EditProposer.Proposal proposal = proposer.propose(incidentId, new RecordLocation(incident.topic(), incident.partition(),
                incident.offset()), edit, action);
        return new EditProposer.Proposal(proposal.edit(), redacted(proposal.diff()));
    }

    /** Four-eyes: refused (409) for the edit's proposer, an approved edit, or an unknown one. */
    public void approve(IncidentId incidentId, int edit, OperatorAction action) {
        incidents.summary(incidentId);
        commands.sendAndWait(new ApproveReplayEditCommand(incidentId, edit, action));
    }

    /** Oldest first, the values of redacted headers hidden as everywhere else; a 404 problem for an unknown incident. */
    public List<ReplayEditView> list(IncidentId incidentId) {
        incidents.summary(incidentId);
        return queries.query(new FindReplayEditsQuery(incidentId), ResponseTypes.multipleInstancesOf(ReplayEditView.class)).join()
                .stream().map(this::redacted).toList();
    }

    private ReplayEditView redacted(ReplayEditView edit) {
        return new ReplayEditView(edit.incidentId(), edit.edit(), edit.proposed(), edit.editedValueHash(), edit.contentHash(),
                edit.editedValueBytes(), redacted(edit.diff()), edit.approval());
    }

    private EditDiff redacted(EditDiff diff) {
        List<EditDiff.Change> headers = diff.headers().stream().map(change -> redaction.isDenied(headerName(change.at()))
                ? new EditDiff.Change(change.at(), hidden(change.before()), hidden(change.after())) : change).toList();
        return new EditDiff(diff.valueKind(), diff.value(), headers);
    }

    /** A header change is at {@code name[position]}. */
    private static String headerName(String at) {
        int bracket = at.lastIndexOf('[');
        return bracket < 0 ? at : at.substring(0, bracket);
    }

    private static String hidden(String value) {
        return value == null ? null : HeaderRedaction.REDACTED;
    }
}

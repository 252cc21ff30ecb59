package io.dlqdesk.projections.edit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dlqdesk.domain.api.ReplayEditApproved;
import io.dlqdesk.domain.api.ReplayEditProposed;
import io.dlqdesk.domain.edit.EditDiff;
import io.dlqdesk.domain.incident.IncidentId;
import org.springframework.jdbc.core.JdbcTemplate;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;

/**
 * The {@code replay_edit} table: written by the incident history's handlers (the audit trail and the edits are one read
 * model, rebuilt together) and read for an incident's page and API. An event handled again writes nothing new.
 */
public final class ReplayEditRows {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String COLUMNS = "incident_id, edit, proposed_by, proposal_reason, proposed_at, edited_value_hash, content_hash,"
            + " edited_value_bytes, diff, approved_by, approval_reason, approved_at";

    private ReplayEditRows() {
    }

    public static void proposed(JdbcTemplate jdbc, ReplayEditProposed event) {
        jdbc.update("INSERT INTO replay_edit (incident_id, edit, proposed_by, proposal_reason, proposed_at, edited_value_hash, content_hash,"
                        + " edited_value_bytes, diff) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON DUPLICATE KEY UPDATE edit = edit",
                event.incidentId().value(), event.edit(), event.proposedBy().principal(), event.proposedBy().reason(),
                utc(event.proposedBy().at()), event.editedValueHash().hex(), event.contentHash().hex(), event.editedValueBytes(),
                write(event.diff()));
    }

    public static void approved(JdbcTemplate jdbc, ReplayEditApproved event) {
        jdbc.update("UPDATE replay_edit SET approved_by = ?, approval_reason = ?, approved_at = ? WHERE incident_id = ? AND edit = ?",
                event.approvedBy().principal(), event.approvedBy().reason(), utc(event.approvedBy().at()), event.incidentId().value(),
                event.edit());
    }

    public static List<ReplayEditView> of(JdbcTemplate jdbc, IncidentId incidentId) {
        return jdbc.query("SELECT " + COLUMNS + " FROM replay_edit WHERE incident_id = ? ORDER BY edit", ReplayEditRows::view,
                incidentId.value());
    }

    private static ReplayEditView view(ResultSet row, int number) throws SQLException {
        String approvedBy = row.getString("approved_by");
        return new ReplayEditView(row.getString("incident_id"), row.getInt("edit"), new ReplayEditView.Signed(row.getString("proposed_by"),
                row.getString("proposal_reason"), instant(row, "proposed_at")), row.getString("edited_value_hash"), row.getString("content_hash"),
                row.getInt("edited_value_bytes"), read(row.getString("diff")), approvedBy == null ? null
                : new ReplayEditView.Signed(approvedBy, row.getString("approval_reason"), instant(row, "approved_at")));
    }

    private static Instant instant(ResultSet row, String column) throws SQLException {
        LocalDateTime at = row.getObject(column, LocalDateTime.class);
        return at == null ? null : at.toInstant(ZoneOffset.UTC);
    }

    private static LocalDateTime utc(Instant at) {
        return LocalDateTime.ofInstant(at, ZoneOffset.UTC);
    }

    private static String write(EditDiff diff) {
        try {
            return JSON.writeValueAsString(diff);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("an edit's diff is always writable", e);
        }
    }

    private static EditDiff read(String diff) {
        try {
            return JSON.readValue(diff, EditDiff.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored edit diff is unreadable", e);
        }
    }
}

package io.dlqdesk.replay.edit;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.record.PayloadHash;
import org.springframework.jdbc.core.JdbcTemplate;

import java.util.Optional;

/**
 * The edited bytes, kept out of the events (whose topic takes records of 1 MB) in a table of their own, under the incident
 * and the content's SHA-256, which the edit's event records. Written before the edit is proposed: a proposal the incident
 * then refuses leaves a row nothing names, which is harmless.
 */
public class EditContentStore {

    private final JdbcTemplate jdbc;

    public EditContentStore(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Idempotent: the same content proposed again is the same row. */
    public void save(IncidentId incidentId, EditedContent content) {
        jdbc.update("INSERT IGNORE INTO replay_edit_content (incident_id, content_hash, value_hash, edited_value, edited_headers, created_at) "
                + "VALUES (?, ?, ?, ?, ?, UTC_TIMESTAMP(6))", incidentId.value(), content.hash().hex(), content.valueHash().hex(),
                content.value(), content.encodedHeaders());
    }

    /**
     * The content stored under {@code contentHash}, checked against it.
     *
     * @throws IllegalStateException when the stored bytes no longer have that hash: they are not what was approved
     */
    public Optional<EditedContent> find(IncidentId incidentId, PayloadHash contentHash) {
        return jdbc.query("SELECT edited_value, edited_headers FROM replay_edit_content WHERE incident_id = ? AND content_hash = ?",
                (row, number) -> EditedContent.decode(row.getBytes("edited_value"), row.getBytes("edited_headers")),
                incidentId.value(), contentHash.hex()).stream().findFirst().map(content -> {
                    if (!content.hash().equals(contentHash)) {
                        throw new IllegalStateException("the stored content of the edit " + contentHash.hex() + " of " + incidentId
                                + " no longer has its SHA-256: it is not what was approved, and is not published");
                    }
                    return content;
                });
    }
}

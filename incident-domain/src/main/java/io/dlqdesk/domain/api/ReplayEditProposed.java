package io.dlqdesk.domain.api;

import io.dlqdesk.domain.edit.EditDiff;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.OperatorAction;
import io.dlqdesk.domain.record.PayloadHash;

/**
 * An editor proposed edit {@code edit} of the incident's source record: the full diff against the record, the SHA-256 of the
 * edited value and of the edited content (value and headers, stored by the application under that hash), who and why. It
 * is not replayable until a second person approves it.
 */
public record ReplayEditProposed(IncidentId incidentId, int edit, PayloadHash editedValueHash, PayloadHash contentHash,
                                 int editedValueBytes, EditDiff diff, OperatorAction proposedBy) {
}

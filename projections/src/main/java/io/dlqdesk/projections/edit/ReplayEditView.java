package io.dlqdesk.projections.edit;

import io.dlqdesk.domain.edit.EditDiff;

import java.time.Instant;

/**
 * One audited edit of an incident's source record as the read model keeps it: who proposed it and why, its hashes and full
 * diff, and who approved it and why (null until approved).
 */
public record ReplayEditView(String incidentId, int edit, Signed proposed, String editedValueHash, String contentHash, int editedValueBytes,
                             EditDiff diff, Signed approval) {

    /** Who, why and when. */
    public record Signed(String by, String reason, Instant at) {
    }

    public boolean approved() {
        return approval != null;
    }
}

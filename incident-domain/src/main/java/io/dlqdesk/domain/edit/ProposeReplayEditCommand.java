package io.dlqdesk.domain.edit;

import io.dlqdesk.domain.InvalidValueException;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.OperatorAction;
import io.dlqdesk.domain.record.EventId;
import io.dlqdesk.domain.record.PayloadHash;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

import java.util.Objects;

/**
 * An editor proposes an edited value and/or headers for the incident's source record. The application stored the edited
 * bytes (under {@code contentHash}) and computed the diff against the record read back; the incident records the proposal
 * and decides whether it may stand.
 *
 * @param editedEventId the event id read from the edited record as ingest reads it (null: none): an edit may not change it,
 *                      or the replay and its re-failure would no longer be the incident's record
 * @param editedValueBytes the edited value's size
 */
public record ProposeReplayEditCommand(
        @TargetAggregateIdentifier IncidentId incidentId,
        PayloadHash editedValueHash,
        PayloadHash contentHash,
        EventId editedEventId,
        int editedValueBytes,
        EditDiff diff,
        OperatorAction proposedBy) {

    /** The default max.message.bytes of a Kafka topic: an edited record larger than that is refused by most brokers anyway. */
    public static final int MAX_EDITED_VALUE_BYTES = 1_000_000;

    public ProposeReplayEditCommand {
        Objects.requireNonNull(incidentId, "incidentId");
        Objects.requireNonNull(editedValueHash, "editedValueHash");
        Objects.requireNonNull(contentHash, "contentHash");
        Objects.requireNonNull(diff, "diff");
        Objects.requireNonNull(proposedBy, "proposedBy");
        if (editedValueBytes < 0 || editedValueBytes > MAX_EDITED_VALUE_BYTES) {
            throw new InvalidValueException("an edited value is at most " + MAX_EDITED_VALUE_BYTES + " bytes, this one is " + editedValueBytes);
        }
    }
}

package io.dlqdesk.domain.rebuild;

import io.dlqdesk.domain.incident.OperatorAction;
import io.dlqdesk.domain.parked.ParkedEvent;
import io.dlqdesk.domain.record.BoundedText;

import java.util.Objects;

/** An admin asked for a bulk rebuild of the read models of {@code processor} (blue/green: the live tables serve until the swap). */
public record ReadModelRebuildRequested(String rebuildId, String processor, OperatorAction by) {

    /** A UUID's text. */
    public static final int MAX_ID_LENGTH = 36;

    public ReadModelRebuildRequested {
        BoundedText.requireIdentifier("rebuildId", rebuildId, MAX_ID_LENGTH);
        BoundedText.requireIdentifier("processor", processor, ParkedEvent.MAX_NAME_LENGTH);
        Objects.requireNonNull(by, "by");
    }
}

package io.dlqdesk.domain.rebuild;

import io.dlqdesk.domain.incident.OperatorAction;
import io.dlqdesk.domain.parked.ParkedEvent;
import io.dlqdesk.domain.record.BoundedText;

import java.util.Objects;

/** An admin cancelled bulk rebuild {@code rebuildId} before its swap: its shadow tables are dropped, the live ones were never touched. */
public record ReadModelRebuildCancelled(String rebuildId, String processor, OperatorAction by) {

    /** A UUID's text. */
    public static final int MAX_ID_LENGTH = 36;

    public ReadModelRebuildCancelled {
        BoundedText.requireIdentifier("rebuildId", rebuildId, MAX_ID_LENGTH);
        BoundedText.requireIdentifier("processor", processor, ParkedEvent.MAX_NAME_LENGTH);
        Objects.requireNonNull(by, "by");
    }
}

package io.dlqdesk.replay.outbox;

import io.dlqdesk.domain.api.ReplayRequested;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;

/**
 * Writes an accepted replay's outbox row in the transaction that accepted it (a subscribing processor runs
 * when the request's events are appended), so the poller can send it at once instead of after the saga's
 * streaming processor reaches the event. If this write is bypassed (processor stopped, an event appended by a
 * version without it) the saga's idempotent insert still writes the row. A failure here fails the request:
 * nothing is recorded and the operator asks again.
 */
@ProcessingGroup(OutboxRowOnRequest.PROCESSING_GROUP)
public class OutboxRowOnRequest {

    public static final String PROCESSING_GROUP = "replay-outbox-on-request";

    private final ReplayOutbox outbox;

    public OutboxRowOnRequest(ReplayOutbox outbox) {
        this.outbox = outbox;
    }

    @EventHandler
    void on(ReplayRequested event) {
        outbox.add(event);
    }
}

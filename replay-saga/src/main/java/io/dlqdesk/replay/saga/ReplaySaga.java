package io.dlqdesk.replay.saga;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import io.dlqdesk.domain.IncidentCommandRefusedException;
import io.dlqdesk.domain.IncidentErrorCode;
import io.dlqdesk.domain.api.PublishMarkedUnknown;
import io.dlqdesk.domain.api.PublishResultRecorded;
import io.dlqdesk.domain.api.ReplayRequested;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.replay.PublishResult;
import io.dlqdesk.domain.replay.RecordPublishResultCommand;
import io.dlqdesk.replay.outbox.OutboxRow;
import io.dlqdesk.replay.outbox.ReplayOutbox;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.deadline.DeadlineManager;
import org.axonframework.deadline.annotation.DeadlineHandler;
import org.axonframework.modelling.saga.EndSaga;
import org.axonframework.modelling.saga.SagaEventHandler;
import org.axonframework.modelling.saga.SagaLifecycle;
import org.axonframework.modelling.saga.StartSaga;
import org.axonframework.spring.stereotype.Saga;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Optional;

/**
 * One replay attempt, from its request to its recorded result: writes the outbox row the poller
 * publishes if the request's own write was bypassed, and checks on a persistent deadline that a result gets recorded. It never decides a
 * result itself: a row that is gone leaves the attempt REQUESTED for an admin to mark
 * PUBLISH_UNKNOWN (guessing "failed" could hide a record that did go out).
 * <p>
 * Its handlers are safe to run out of order, because an event it fails on is parked and later ones go on (Axon 4 gives
 * sagas no dead-letter queue that holds them back): a result recorded before the request is handled finds no saga and
 * is ignored; the request handled later starts one whose reconciliation finds the row decided, has the result confirmed
 * by the incident, and ends.
 */
@Saga
@ProcessingGroup(ReplaySaga.PROCESSING_GROUP)
@JsonAutoDetect(fieldVisibility = JsonAutoDetect.Visibility.ANY, getterVisibility = JsonAutoDetect.Visibility.NONE,
        isGetterVisibility = JsonAutoDetect.Visibility.NONE)
public class ReplaySaga {

    public static final String PROCESSING_GROUP = "replay-saga";
    static final String REPLAY_ID = "replayId";
    static final String RECONCILE = "replay-reconciliation";

    private static final Logger log = LoggerFactory.getLogger(ReplaySaga.class);

    /** The deadline's payload (a deadline handler's first parameter is its payload). */
    record ReconciliationDue(String replayId) {
    }

    private String replayId;
    private String incidentId;
    private int attempt;
    private String reconciliationId;

    @StartSaga
    @SagaEventHandler(associationProperty = REPLAY_ID)
    void on(ReplayRequested event, ReplayOutbox outbox, DeadlineManager deadlines, ReconciliationDelay delay) {
        this.replayId = event.replayId();
        this.incidentId = event.incidentId().value();
        this.attempt = event.attempt();
        outbox.addUnlessPresent(event); // a backstop: the row is normally written with the request
        this.reconciliationId = deadlines.schedule(delay.value(), RECONCILE, new ReconciliationDue(replayId));
    }

    @EndSaga
    @SagaEventHandler(associationProperty = REPLAY_ID)
    void on(PublishResultRecorded event, DeadlineManager deadlines) {
        cancelReconciliation(deadlines);
    }

    @EndSaga
    @SagaEventHandler(associationProperty = REPLAY_ID)
    void on(PublishMarkedUnknown event, DeadlineManager deadlines) {
        cancelReconciliation(deadlines);
    }

    /** A deadline executing right now cannot be cancelled; it then finds the saga ended and does nothing. */
    private void cancelReconciliation(DeadlineManager deadlines) {
        try {
            deadlines.cancelSchedule(RECONCILE, reconciliationId);
        } catch (RuntimeException e) {
            log.debug("reconciliation of {} not cancelled ({}); it will find the saga ended", replayId, e.toString());
        }
    }

    /** No result recorded yet: send the row's decided result again, or keep waiting for a PENDING one. */
    @DeadlineHandler(deadlineName = RECONCILE)
    void reconcile(ReconciliationDue due, ReplayOutbox outbox, CommandGateway commands, DeadlineManager deadlines, ReconciliationDelay delay) {
        Optional<OutboxRow> row = outbox.find(replayId);
        if (row.isEmpty()) {
            log.warn("replay {} has no outbox row and no recorded result: it stays REQUESTED; an admin may mark it PUBLISH_UNKNOWN",
                    replayId);
            return;
        }
        if (row.get().status() == OutboxRow.Status.ABANDONED) {
            log.info("replay {} was marked PUBLISH_UNKNOWN; nothing to reconcile", replayId);
            return;
        }
        Optional<PublishResult> decided = row.get().result();
        if (decided.isEmpty()) {
            log.info("replay {} is still PENDING after {} tries", replayId, row.get().tries());
        } else if (recorded(decided.get(), commands)) {
            SagaLifecycle.end(); // the incident holds the result now, whether this sent it or it was there before
            return;
        }
        this.reconciliationId = deadlines.schedule(delay.value(), RECONCILE, new ReconciliationDue(replayId));
    }

    /**
     * Sends the decided result again and waits for the incident's answer: taken (or already there, the same) means the
     * attempt is decided, and so does a different result already recorded. Only then may the saga end without seeing
     * {@link PublishResultRecorded}, which it would miss when it handles its events out of order (a parked event retried
     * later, see ParkedSagaEvents). Anything else is tried again at the next deadline.
     */
    private boolean recorded(PublishResult result, CommandGateway commands) {
        log.info("replay {} was decided {} but its result was not recorded: sending it again", replayId, result.status());
        try {
            commands.sendAndWait(new RecordPublishResultCommand(IncidentId.parse(incidentId), attempt, result));
            return true;
        } catch (IncidentCommandRefusedException e) {
            if (e.code() == IncidentErrorCode.PUBLISH_ALREADY_DECIDED) {
                log.warn("replay {}: the incident already holds another result for attempt {} ({})", replayId, attempt, e.getMessage());
                return true;
            }
            log.warn("replay {}: sending its result again was refused ({}); tried again later", replayId, e.getMessage());
            return false;
        } catch (RuntimeException e) {
            log.warn("replay {}: sending its result again failed ({}); tried again later", replayId, e.toString());
            return false;
        }
    }
}

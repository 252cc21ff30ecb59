package io.dlqdesk.replay.job;

import io.dlqdesk.domain.api.IncidentOpened;
import io.dlqdesk.domain.api.ReplayRejected;
import io.dlqdesk.domain.api.ReplayRequested;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.OperatorAction;
import io.dlqdesk.domain.job.ReplayJobId;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.domain.replay.ReplayOutcome;
import io.dlqdesk.domain.replay.RequestReplayCommand;
import io.dlqdesk.replay.request.ReplayRequester;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventsourcing.eventstore.DomainEventStream;
import org.axonframework.eventsourcing.eventstore.EventStore;

/**
 * Prepares one incident of a job for its replay request, exactly as a single replay is prepared ({@link ReplayRequester}:
 * the source record read back at the incident's recorded location). First it reads the incident's history: if a request
 * of this job is already there (a runner stopped between asking and recording the answer), that is the answer and nothing
 * is asked again.
 */
public class IncidentAsk {

    /** Either the answer found in the history, or the request to send. */
    public record Prepared(ReplayOutcome earlier, RequestReplayCommand request) {
    }

    private final EventStore events;
    private final ReplayRequester requester;

    public IncidentAsk(EventStore events, ReplayRequester requester) {
        this.events = events;
        this.requester = requester;
    }

    Prepared prepare(ReplayJobId job, IncidentId incident, OperatorAction requestedBy) {
        FailureKey failure = null;
        ReplayOutcome earlier = null;
        DomainEventStream stream = events.readEvents(incident.value());
        while (stream.hasNext()) {
            DomainEventMessage<?> event = stream.next();
            Object payload = event.getPayload();
            if (payload instanceof IncidentOpened opened) {
                failure = opened.failure().failureKey();
            } else if (job.value().equals(event.getMetaData().get(JobMetadata.KEY))) {
                if (payload instanceof ReplayRequested requested) {
                    earlier = ReplayOutcome.requested(requested.attempt());
                } else if (payload instanceof ReplayRejected rejected) {
                    earlier = ReplayOutcome.rejected(rejected.reasons());
                }
            }
        }
        if (earlier != null) {
            return new Prepared(earlier, null);
        }
        if (failure == null) {
            throw new IllegalStateException("no incident " + incident + " in the event store");
        }
        return new Prepared(null, requester.prepare(incident, failure.location(), failure.consumerGroup(), requestedBy));
    }
}

package io.dlqdesk.replay.job;

import io.dlqdesk.domain.api.IncidentId;
import io.dlqdesk.domain.api.IncidentOpened;
import io.dlqdesk.domain.api.OperatorAction;
import io.dlqdesk.domain.api.RecordLocation;
import io.dlqdesk.domain.api.ReplayJobId;
import io.dlqdesk.domain.api.ReplayOutcome;
import io.dlqdesk.domain.api.ReplayRejected;
import io.dlqdesk.domain.api.ReplayRequested;
import io.dlqdesk.replay.request.ReplayRequester;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventsourcing.eventstore.DomainEventStream;
import org.axonframework.eventsourcing.eventstore.EventStore;

/**
 * Asks one claimed incident of a job for its replay, exactly as a single replay is asked ({@link ReplayRequester}: the
 * source record read back, then the incident's own conditions), with the job named in the request's metadata. First it
 * reads the incident's history: if the job's request is already there (a runner stopped between asking and recording the
 * answer), that answer is returned and nothing is asked again.
 */
public class IncidentAsk {

    private final EventStore events;
    private final ReplayRequester requester;

    public IncidentAsk(EventStore events, ReplayRequester requester) {
        this.events = events;
        this.requester = requester;
    }

    ReplayOutcome ask(ReplayJobId job, IncidentId incident, OperatorAction requestedBy) {
        RecordLocation location = null;
        ReplayOutcome earlier = null;
        DomainEventStream stream = events.readEvents(incident.value());
        while (stream.hasNext()) {
            DomainEventMessage<?> event = stream.next();
            Object payload = event.getPayload();
            if (payload instanceof IncidentOpened opened) {
                location = opened.failure().failureKey().location();
            } else if (job.value().equals(event.getMetaData().get(JobMetadata.KEY))) {
                if (payload instanceof ReplayRequested requested) {
                    earlier = ReplayOutcome.requested(requested.attempt());
                } else if (payload instanceof ReplayRejected rejected) {
                    earlier = ReplayOutcome.rejected(rejected.reasons());
                }
            }
        }
        if (earlier != null) {
            return earlier;
        }
        if (location == null) {
            throw new IllegalStateException("no incident " + incident + " in the event store");
        }
        return requester.request(incident, location, requestedBy, job);
    }
}

package io.dlqdesk.projections.asof;

import io.dlqdesk.domain.api.IncidentAcknowledged;
import io.dlqdesk.domain.api.IncidentDiscarded;
import io.dlqdesk.domain.api.IncidentOpened;
import io.dlqdesk.domain.api.IncidentReopened;
import io.dlqdesk.domain.api.IncidentResolved;
import io.dlqdesk.domain.api.IncidentStatus;
import org.axonframework.common.stream.BlockingStream;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.axonframework.eventsourcing.eventstore.EventStore;
import org.axonframework.queryhandling.QueryHandler;
import org.springframework.stereotype.Component;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Point-in-time audit: replays the event store from the start and keeps every event recorded at or
 * before the instant, so the answer is what the ledger said then — not derived from today's tables,
 * which a later event or a bug in a projection could have changed. The one query that reads events.
 */
@Component
public class IncidentsAsOf {

    private final EventStore events;

    IncidentsAsOf(EventStore events) {
        this.events = events;
    }

    @QueryHandler
    List<IncidentAsOf> handle(FindIncidentsAsOfQuery query) {
        Map<String, IncidentAsOf> incidents = new LinkedHashMap<>();
        try (BlockingStream<TrackedEventMessage<?>> stream = events.openStream(null)) {
            while (stream.hasNextAvailable()) {
                TrackedEventMessage<?> message = stream.nextAvailable();
                if (!message.getTimestamp().isAfter(query.at())) {
                    apply(incidents, message.getPayload(), message.getTimestamp());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while replaying events", e);
        }
        List<IncidentAsOf> result = new ArrayList<>(incidents.values());
        result.sort(Comparator.comparing(IncidentAsOf::incidentId));
        return result;
    }

    private static void apply(Map<String, IncidentAsOf> incidents, Object event, Instant at) {
        if (event instanceof IncidentOpened opened) {
            var key = opened.failureKey();
            incidents.put(opened.incidentId().value(), new IncidentAsOf(opened.incidentId().value(), key.topic(), key.partition(),
                    key.offset(), key.consumerGroup(), IncidentStatus.OPEN, at));
        } else if (event instanceof IncidentAcknowledged e) {
            status(incidents, e.incidentId().value(), IncidentStatus.ACKED, at);
        } else if (event instanceof IncidentResolved e) {
            status(incidents, e.incidentId().value(), IncidentStatus.RESOLVED, at);
        } else if (event instanceof IncidentDiscarded e) {
            status(incidents, e.incidentId().value(), IncidentStatus.DISCARDED, at);
        } else if (event instanceof IncidentReopened e) {
            status(incidents, e.incidentId().value(), IncidentStatus.OPEN, at);
        }
    }

    private static void status(Map<String, IncidentAsOf> incidents, String incidentId, IncidentStatus status, Instant at) {
        IncidentAsOf before = incidents.get(incidentId);
        if (before != null) {
            incidents.put(incidentId, new IncidentAsOf(before.incidentId(), before.topic(), before.partition(), before.offset(),
                    before.consumerGroup(), status, at));
        }
    }
}

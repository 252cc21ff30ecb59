package io.dlqdesk.notifications.source;

import io.dlqdesk.domain.api.IncidentOpened;
import io.dlqdesk.domain.api.IncidentReopened;
import io.dlqdesk.domain.api.ReplayJobPaused;
import io.dlqdesk.domain.job.ReplayJobPauseReason;
import io.dlqdesk.domain.parked.EventParked;
import io.dlqdesk.domain.parked.ParkedEvent;
import io.dlqdesk.domain.record.ExceptionSummary;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.notifications.Notification;
import io.dlqdesk.notifications.NotificationEvent;
import io.dlqdesk.notifications.delivery.Deliveries;
import io.dlqdesk.projections.incident.ExceptionGroup;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventhandling.ReplayStatus;
import org.axonframework.eventhandling.ResetHandler;
import org.axonframework.messaging.annotation.MessageIdentifier;
import org.springframework.jdbc.core.JdbcTemplate;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Turns incident events into notifications, in the transaction of its own tracking processor: each notification's
 * delivery rows are written with the token that moves past its event, so a notification is enqueued at least once,
 * survives restarts, and neither ingest nor replay ever waits for it (nor for any receiver: senders read the rows).
 * The processor starts at the oldest event as a replay up to the newest at its first start: history teaches it the
 * exception groups seen so far and announces nothing.
 */
@ProcessingGroup(IncidentNotifications.PROCESSING_GROUP)
public class IncidentNotifications {

    /** Explicit, so that moving this class never resets its token. */
    public static final String PROCESSING_GROUP = "incident-notifications";

    private final Deliveries deliveries;
    private final ExceptionGroupsSeen groups;
    private final Counter newGroups;

    public IncidentNotifications(Deliveries deliveries, JdbcTemplate jdbc, MeterRegistry meters) {
        this.deliveries = deliveries;
        this.groups = new ExceptionGroupsSeen(jdbc);
        this.newGroups = Counter.builder("dlq.exception_groups.new")
                .description("exception groups seen for the first time (counted once, by the instance whose processor saw it)").register(meters);
    }

    @EventHandler
    void on(IncidentReopened event, @MessageIdentifier String eventId, ReplayStatus replay) {
        if (replay.isReplay()) {
            return;
        }
        FailureKey refailure = event.reopenedBy();
        Map<String, Object> facts = new LinkedHashMap<>();
        facts.put("topic", refailure.topic());
        facts.put("consumerGroup", refailure.consumerGroup());
        facts.put("previousStatus", event.previousStatus().name());
        facts.put("refailedPartition", refailure.partition());
        facts.put("refailedOffset", refailure.offset());
        facts.put("reopenedAt", event.reopenedAt().toString());
        deliveries.enqueue(new Notification("incident-reopened:" + eventId, NotificationEvent.INCIDENT_REOPENED, event.reopenedAt(),
                "Incident " + event.incidentId().value() + " was " + event.previousStatus() + " and failed again: the replayed record of "
                        + refailure.topic() + " failed in " + refailure.consumerGroup() + " (" + refailure.topic() + "-" + refailure.partition()
                        + "@" + refailure.offset() + ")", event.incidentId().value(), facts));
    }

    /** In replay too: history is how the processor learns which groups are not new. */
    @EventHandler
    void on(IncidentOpened event, @MessageIdentifier String eventId, ReplayStatus replay) {
        ExceptionSummary exception = event.failure().exception();
        ExceptionGroup group = ExceptionGroup.of(exception);
        if (!groups.firstSeen(group, event.incidentId(), event.detectedAt()) || replay.isReplay()) {
            return;
        }
        ExceptionGroupsSeen.afterCommit(newGroups::increment);
        FailureKey key = event.failureKey();
        Map<String, Object> facts = new LinkedHashMap<>();
        facts.put("exceptionGroup", group.id());
        facts.put("exceptionClass", group.exceptionClass());
        facts.put("message", group.fingerprint());
        facts.put("topic", key.topic());
        facts.put("consumerGroup", key.consumerGroup());
        facts.put("partition", key.partition());
        facts.put("offset", key.offset());
        facts.put("detectedAt", event.detectedAt().toString());
        deliveries.enqueue(new Notification("new-exception-group:" + group.id(), NotificationEvent.NEW_EXCEPTION_GROUP, event.detectedAt(),
                "A new kind of failure: " + group.exceptionClass() + (group.fingerprint().isEmpty() ? "" : " \"" + group.fingerprint() + "\"")
                        + ", first in " + key.consumerGroup() + " on " + key.topic() + " (incident " + event.incidentId().value() + ")",
                event.incidentId().value(), facts));
    }

    /** Only the pauses the job decided itself: an operator who paused it knows. */
    @EventHandler
    void on(ReplayJobPaused event, @MessageIdentifier String eventId, ReplayStatus replay) {
        if (replay.isReplay() || event.reason() == ReplayJobPauseReason.OPERATOR) {
            return;
        }
        Map<String, Object> facts = new LinkedHashMap<>();
        facts.put("jobId", event.jobId().value());
        facts.put("reason", event.reason().name());
        facts.put("explanation", event.by().reason());
        facts.put("pausedAt", event.by().at().toString());
        deliveries.enqueue(new Notification("replay-job-paused:" + eventId, NotificationEvent.REPLAY_JOB_PAUSED, event.by().at(),
                "Replay job " + event.jobId().value() + " paused itself (" + event.reason() + "): " + event.by().reason()
                        + ". It requests nothing until an operator resumes it.", null, facts));
    }

    /** An event processor parked an event: a read model, the rollback facts or the events topic miss it until someone acts. */
    @EventHandler
    void on(EventParked event, @MessageIdentifier String eventId, ReplayStatus replay) {
        if (replay.isReplay()) {
            return;
        }
        ParkedEvent parked = event.event();
        Map<String, Object> facts = new LinkedHashMap<>();
        facts.put("processingGroup", parked.processingGroup());
        facts.put("sequence", parked.sequenceIdentifier());
        facts.put("eventType", parked.eventType());
        facts.put("eventId", parked.eventIdentifier());
        facts.put("causeType", event.causeType());
        facts.put("attempts", event.attempts());
        facts.put("parkedAt", event.parkedAt().toString());
        String simpleType = parked.eventType().substring(parked.eventType().lastIndexOf('.') + 1);
        deliveries.enqueue(new Notification("event-parked:" + eventId, NotificationEvent.EVENT_PARKED, event.parkedAt(),
                "Processing group " + parked.processingGroup() + " parked event " + simpleType + " of " + parked.sequenceIdentifier()
                        + " after " + event.attempts() + " attempts (" + event.causeType() + "); the later events of "
                        + parked.sequenceIdentifier() + " wait behind it there. Retry or evict it on the console's Parked events page.",
                parked.sequenceIdentifier().startsWith("inc-") ? parked.sequenceIdentifier() : null, facts));
    }

    /** A reset forgets the groups seen (the replay after it learns them again); deliveries already enqueued stay. */
    @ResetHandler
    void reset() {
        groups.clear();
    }
}

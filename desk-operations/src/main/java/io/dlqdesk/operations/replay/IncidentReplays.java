package io.dlqdesk.operations.replay;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.OperatorAction;
import io.dlqdesk.domain.record.RecordLocation;
import io.dlqdesk.domain.replay.ReplayOutcome;
import io.dlqdesk.operations.incident.IncidentReads;
import io.dlqdesk.projections.incident.IncidentSummaryView;
import io.dlqdesk.replay.request.PublishUnknownMarker;
import io.dlqdesk.replay.request.ReplayRequester;
import org.apache.kafka.common.TopicPartition;

/** One incident's replay, asked for by an operator from either front door. */
public class IncidentReplays {

    private final IncidentReads incidents;
    private final ReplayRequester requester;
    private final PublishUnknownMarker publishUnknown;

    public IncidentReplays(IncidentReads incidents, ReplayRequester requester, PublishUnknownMarker publishUnknown) {
        this.incidents = incidents;
        this.requester = requester;
        this.publishUnknown = publishUnknown;
    }

    /**
     * Asks for a replay of the incident's record at the location the read model recorded: the attempt, or every failed
     * condition (recorded on the incident too). A 404 problem for an unknown incident. {@code overrideStaleKey}: replay even
     * though its target group has processed a newer record with the key (STALE_KEY), or the check could not tell. {@code edit}:
     * the approved edit to publish in place of the record's value and headers (null: the record as it is).
     */
    public ReplayOutcome request(IncidentId incidentId, OperatorAction action, boolean overrideStaleKey, Integer edit) {
        IncidentSummaryView incident = incidents.summary(incidentId);
        return requester.request(incidentId, new RecordLocation(incident.topic(), incident.partition(), incident.offset()),
                incident.consumerGroup(), action, overrideStaleKey, edit);
    }

    /** Ends an attempt whose outbox row is really gone as PUBLISH_UNKNOWN; refused while the row exists. */
    public void markPublishUnknown(IncidentId incidentId, int attempt, OperatorAction action) {
        publishUnknown.mark(incidentId, attempt, action, () -> incidents.find(incidentId)
                .map(incident -> new TopicPartition(incident.topic(), incident.partition())));
    }
}

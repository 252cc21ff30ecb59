package io.dlqdesk.domain.replay;

import io.dlqdesk.domain.InvalidValueException;
import io.dlqdesk.domain.incident.IncidentId;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

import java.util.Objects;

/**
 * A dry run of {@link RequestReplayCommand}: the incident evaluates the same replay conditions on the same facts and
 * answers the refusals (empty: it would be requested), recording nothing.
 */
public record EvaluateReplayCommand(@TargetAggregateIdentifier IncidentId incidentId, RequestReplayCommand request) {

    public EvaluateReplayCommand {
        Objects.requireNonNull(incidentId, "incidentId");
        Objects.requireNonNull(request, "request");
        if (!incidentId.equals(request.incidentId())) {
            throw new InvalidValueException("the request is for " + request.incidentId() + ", not " + incidentId);
        }
    }

    public EvaluateReplayCommand(RequestReplayCommand request) {
        this(request.incidentId(), request);
    }
}

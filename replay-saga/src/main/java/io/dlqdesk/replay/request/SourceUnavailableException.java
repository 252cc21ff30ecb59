package io.dlqdesk.replay.request;

import io.dlqdesk.domain.incident.IncidentId;

/** The source record could not be read now (the broker did not answer): nothing was decided, try again. */
public class SourceUnavailableException extends RuntimeException {

    public SourceUnavailableException(IncidentId incidentId, String detail) {
        super("the source record of " + incidentId + " could not be read, nothing was decided: " + detail);
    }
}

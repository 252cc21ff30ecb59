package io.dlqdesk.domain;

import io.dlqdesk.domain.incident.IncidentId;

/** A command the Incident refused, with a stable code for the API's problem details. */
public class IncidentCommandRefusedException extends RuntimeException {

    private final IncidentId incidentId;
    private final IncidentErrorCode code;

    public IncidentCommandRefusedException(IncidentId incidentId, IncidentErrorCode code, String detail) {
        super(code + " (" + incidentId + "): " + detail);
        this.incidentId = incidentId;
        this.code = code;
    }

    public IncidentId incidentId() {
        return incidentId;
    }

    public IncidentErrorCode code() {
        return code;
    }
}

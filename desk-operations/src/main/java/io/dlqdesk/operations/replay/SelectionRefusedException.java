package io.dlqdesk.operations.replay;

import java.util.List;

/**
 * A replay job's selection cannot be used: nothing selected, too much, incident ids that do not exist, or incidents that a job
 * with work left already selected.
 */
public class SelectionRefusedException extends RuntimeException {

    public enum Reason { EMPTY, TOO_LARGE, UNKNOWN_INCIDENTS, IN_ACTIVE_JOB }

    private final Reason reason;
    private final List<String> incidentIds;
    private final List<String> activeJobs;

    SelectionRefusedException(Reason reason, String detail, List<String> incidentIds) {
        this(reason, detail, incidentIds, List.of());
    }

    /** @param incidentIds the unknown ones, or those in an active job; {@code activeJobs}: those jobs */
    SelectionRefusedException(Reason reason, String detail, List<String> incidentIds, List<String> activeJobs) {
        super(detail);
        this.reason = reason;
        this.incidentIds = List.copyOf(incidentIds);
        this.activeJobs = List.copyOf(activeJobs);
    }

    public Reason reason() {
        return reason;
    }

    public List<String> incidentIds() {
        return incidentIds;
    }

    public List<String> activeJobs() {
        return activeJobs;
    }
}

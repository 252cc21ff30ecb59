package io.dlqdesk.domain.api;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.OperatorAction;
import io.dlqdesk.domain.job.ReplayJobId;
import io.dlqdesk.domain.job.ReplayJobLimits;
import io.dlqdesk.domain.job.ReplayJobStatus;
import java.util.List;

/**
 * A replay job was created over {@code selected} incidents, requested in manifest order, without duplicates. So that every
 * job event fits one record of the events topic, the manifest is recorded in parts: this event holds its first
 * {@value #MAX_PART} incidents at most, and {@link ReplayJobManifestExtended} events appended in the same commit hold the rest,
 * in order.
 *
 * @param selected         the size of the whole manifest; a payload stored before the manifest came in parts has none, and
 *                         its {@code manifest} is all of it
 * @param awaitingApproval the job waits for a second person's approval before it asks anything (false in payloads stored
 *                         before four-eyes existed)
 */
public record ReplayJobCreated(ReplayJobId jobId, String selection, List<IncidentId> manifest, ReplayJobLimits limits,
                               OperatorAction createdBy, int selected, boolean awaitingApproval) {

    /** Incidents per part of a manifest: 1,000 ids are about 48 KB of JSON, far below a Kafka record's usual 1 MB. */
    public static final int MAX_PART = 1_000;

    public ReplayJobCreated {
        if (selected == 0) {
            selected = manifest.size();
        }
    }

    /** The state the job starts in; derived, so not part of the stored form. */
    public ReplayJobStatus initialStatus() {
        return awaitingApproval ? ReplayJobStatus.AWAITING_APPROVAL : ReplayJobStatus.RUNNING;
    }

    /** A job whose manifest is all in this event, running at once. */
    public ReplayJobCreated(ReplayJobId jobId, String selection, List<IncidentId> manifest, ReplayJobLimits limits, OperatorAction createdBy) {
        this(jobId, selection, manifest, limits, createdBy, manifest.size(), false);
    }

    /** A job running at once. */
    public ReplayJobCreated(ReplayJobId jobId, String selection, List<IncidentId> manifest, ReplayJobLimits limits, OperatorAction createdBy,
                            int selected) {
        this(jobId, selection, manifest, limits, createdBy, selected, false);
    }
}

package io.dlqdesk.domain.job;

import io.dlqdesk.domain.InvalidValueException;
import io.dlqdesk.domain.incident.CommandArguments;
import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.replay.PublishStatus;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

import java.time.Instant;
import java.util.Objects;

/** One of the job's attempts was decided: PUBLISHED, PUBLISH_FAILED or PUBLISH_UNKNOWN. */
public record RecordJobPublishResultCommand(@TargetAggregateIdentifier ReplayJobId jobId, IncidentId incidentId, int attempt,
                                            PublishStatus status, Instant at) {

    public RecordJobPublishResultCommand {
        Objects.requireNonNull(jobId, "jobId");
        Objects.requireNonNull(incidentId, "incidentId");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(at, "at");
        CommandArguments.requireAttempt(attempt);
        if (status == PublishStatus.NONE || status == PublishStatus.REQUESTED) {
            throw new InvalidValueException("a decided publish status is PUBLISHED, PUBLISH_FAILED or PUBLISH_UNKNOWN, was " + status);
        }
    }
}

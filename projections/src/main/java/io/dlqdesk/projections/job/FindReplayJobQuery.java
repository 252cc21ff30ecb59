package io.dlqdesk.projections.job;

import io.dlqdesk.domain.job.ReplayJobId;

import java.util.Objects;

/** One replay job; answered with an optional {@link ReplayJobView}. */
public record FindReplayJobQuery(ReplayJobId jobId) {

    public FindReplayJobQuery {
        Objects.requireNonNull(jobId, "jobId");
    }
}

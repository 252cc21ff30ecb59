package io.dlqdesk.projections.job;

import io.dlqdesk.domain.PageBounds;

/** Replay jobs, newest first; answered with a {@link ReplayJobPage}. */
public record ListReplayJobsQuery(int page, int size) {

    public ListReplayJobsQuery {
        PageBounds.require(page, size);
    }
}

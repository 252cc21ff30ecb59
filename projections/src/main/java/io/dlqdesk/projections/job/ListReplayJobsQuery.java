package io.dlqdesk.projections.job;

import io.dlqdesk.projections.Paging;

/** Replay jobs, newest first; answered with a {@link ReplayJobPage}. */
public record ListReplayJobsQuery(int page, int size) {

    public ListReplayJobsQuery {
        Paging.requireValid(page, size);
    }
}

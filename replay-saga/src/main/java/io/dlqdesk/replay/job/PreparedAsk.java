package io.dlqdesk.replay.job;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.job.ReplayJobId;

import java.time.Instant;

/** What a worker hands back: the prepared request (or the answer found), or why it could not be prepared. */
record PreparedAsk(ReplayJobId job, IncidentId incident, boolean again, IncidentAsk.Prepared prepared, Instant at,
                   RuntimeException failure, long term, long preparedAtNanos) {
}

package io.dlqdesk.domain.api;

import io.dlqdesk.domain.incident.OperatorAction;
import io.dlqdesk.domain.job.ReplayJobId;

/** No incident of the job is requested after this; replays already requested still finish. */
public record ReplayJobCancelled(ReplayJobId jobId, OperatorAction by) {
}

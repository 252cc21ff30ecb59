package io.dlqdesk.replay.saga;

import java.time.Duration;

/** How long after a replay request (and between later checks) the saga checks that a result was recorded. */
public record ReconciliationDelay(Duration value) {
}

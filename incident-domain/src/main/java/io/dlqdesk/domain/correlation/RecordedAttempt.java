package io.dlqdesk.domain.correlation;

import io.dlqdesk.domain.record.PayloadHash;

/** What an incident recorded when it accepted replay attempt {@code attempt}. */
public record RecordedAttempt(int attempt, String targetGroup, PayloadHash valueHash) {
}

package io.dlqdesk.rollback.web;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * {@code dlqdesk.rollback.endpoint.*}: how the HTTP endpoint shares checks among callers.
 *
 * @param maxWaiters callers that may wait for the next check; more are answered 429 with Retry-After at once
 * @param maxWait    how long a caller waits before it is answered UNKNOWN (503) with Retry-After
 */
@ConfigurationProperties("dlqdesk.rollback.endpoint")
public record ReadinessEndpointProperties(@DefaultValue("64") int maxWaiters, @DefaultValue("60s") Duration maxWait) {

    public ReadinessEndpointProperties {
        if (maxWaiters < 1) {
            throw new IllegalArgumentException("dlqdesk.rollback.endpoint.max-waiters must be at least 1, was " + maxWaiters);
        }
        if (maxWait == null || maxWait.isNegative() || maxWait.isZero()) {
            throw new IllegalArgumentException("dlqdesk.rollback.endpoint.max-wait must be positive, was " + maxWait);
        }
    }
}

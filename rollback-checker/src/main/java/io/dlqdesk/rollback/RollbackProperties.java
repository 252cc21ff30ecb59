package io.dlqdesk.rollback;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;
import java.util.Objects;

/**
 * {@code dlqdesk.rollback.*}: the rollback-readiness check. Defaults here are the shipped ones (listed in docs/configuration.md).
 *
 * @param observationInterval time between the two observations a READY verdict needs
 * @param consumerRetryWindow the longest a consumer keeps retrying a record before it dead-letters it
 *                            (its back-off schedule plus the handler's run time)
 * @param ingestDelay         the longest from a dead-lettered record to its incident in this service
 * @param clockSkewMargin     allowance for clocks of the database, this service and the consumers disagreeing
 * @param readModelWait       how long an observation waits for the rollback-facts read model to reach the event store's head
 * @param requestTimeout      bound on each broker request and database query the check makes
 * @param allowNoDlqTopics    whether finding no DLQ topic at all may count as "the ingest group is caught up"
 */
@ConfigurationProperties("dlqdesk.rollback")
public record RollbackProperties(
        @DefaultValue("5s") Duration observationInterval,
        @DefaultValue("1m") Duration consumerRetryWindow,
        @DefaultValue("30s") Duration ingestDelay,
        @DefaultValue("10s") Duration clockSkewMargin,
        @DefaultValue("10s") Duration readModelWait,
        @DefaultValue("10s") Duration requestTimeout,
        @DefaultValue("false") boolean allowNoDlqTopics) {

    public RollbackProperties {
        notNegative("observation-interval", observationInterval);
        notNegative("consumer-retry-window", consumerRetryWindow);
        notNegative("ingest-delay", ingestDelay);
        notNegative("clock-skew-margin", clockSkewMargin);
        notNegative("read-model-wait", readModelWait);
        positive("request-timeout", requestTimeout);
    }

    /** How long after the last publish decision a consequence of it (a re-failure reaching an incident) may still appear. */
    public Duration retryBound() {
        return consumerRetryWindow.plus(ingestDelay).plus(clockSkewMargin);
    }

    private static void notNegative(String name, Duration value) {
        Objects.requireNonNull(value, () -> "dlqdesk.rollback." + name + " must be set");
        if (value.isNegative()) {
            throw new IllegalArgumentException("dlqdesk.rollback." + name + " must not be negative, was " + value);
        }
    }

    private static void positive(String name, Duration value) {
        notNegative(name, value);
        if (value.isZero()) {
            throw new IllegalArgumentException("dlqdesk.rollback." + name + " must be positive, was " + value);
        }
    }
}

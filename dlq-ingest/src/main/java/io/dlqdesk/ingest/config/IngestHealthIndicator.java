package io.dlqdesk.ingest.config;

import io.dlqdesk.ingest.loop.DlqConsumerLoop;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * Health of DLQ ingest from the poll loop. Liveness: DOWN when the loop has not polled within the
 * bound, whatever the reason (stopped, stuck in a callback, dead thread). Readiness also needs the
 * loop to make progress while polls go on: DOWN when the consumer has had no broker connection within
 * the bound, or when no record in flight was written within it and the latest write could not reach
 * the database. A record that fails on its own, or partitions held at a malformed record (listed),
 * do not make the service unready: the others flow.
 */
public class IngestHealthIndicator implements HealthIndicator {

    private final DlqConsumerLoop loop;
    private final Duration bound;
    private final boolean progressNeeded;
    private final Clock clock;

    private IngestHealthIndicator(DlqConsumerLoop loop, Duration bound, boolean progressNeeded, Clock clock) {
        this.loop = loop;
        this.bound = bound;
        this.progressNeeded = progressNeeded;
        this.clock = clock;
    }

    /** Polling, writing what it polled, and in touch with a broker. */
    public static IngestHealthIndicator readiness(DlqConsumerLoop loop, Duration bound, Clock clock) {
        return new IngestHealthIndicator(loop, bound, true, clock);
    }

    /** Polling: an outage of the database or the brokers must not get the instance replaced. */
    public static IngestHealthIndicator liveness(DlqConsumerLoop loop, Duration bound, Clock clock) {
        return new IngestHealthIndicator(loop, bound, false, clock);
    }

    @Override
    public Health health() {
        Instant now = clock.instant();
        Duration pollAge = Duration.between(loop.lastHeartbeat(), now);
        Duration progressAge = Duration.between(loop.lastProgress(), now);
        Duration brokerAge = Duration.between(loop.lastBrokerContact(), now);
        boolean up = loop.running() && within(pollAge)
                && (!progressNeeded || within(brokerAge) && !(loop.databaseUnreachable() && !within(progressAge)));
        Health.Builder health = up ? Health.up() : Health.down();
        health.withDetail("lastPoll", loop.lastHeartbeat().toString())
                .withDetail("lastPollAgeMs", pollAge.toMillis())
                .withDetail("boundMs", bound.toMillis())
                .withDetail("blockedPartitions", loop.blockedPartitions());
        if (progressNeeded) {
            health.withDetail("lastProgressAgeMs", progressAge.toMillis())
                    .withDetail("databaseUnreachable", loop.databaseUnreachable())
                    .withDetail("lastBrokerContactAgeMs", brokerAge.toMillis());
        }
        if (loop.lastError() != null) {
            health.withDetail("lastError", loop.lastError());
        }
        return health.build();
    }

    private boolean within(Duration age) {
        return age.compareTo(bound) <= 0;
    }
}

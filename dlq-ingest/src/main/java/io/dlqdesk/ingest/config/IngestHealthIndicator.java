package io.dlqdesk.ingest.config;

import io.dlqdesk.ingest.loop.LoopHealth;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * Health of DLQ ingest from the poll loop's {@link LoopHealth}. Liveness: DOWN when the loop has not
 * polled within the bound, whatever the reason (stopped, stuck in a callback, dead thread). Readiness
 * also needs the loop to make progress while polls go on: DOWN when the consumer has had no broker
 * connection within the bound, or when records wait in flight and none left its slot within it,
 * whatever the cause (database unreachable, locks, a hung write). Partitions held at a record (listed)
 * do not make the service unready: their records hold no slot, and the others flow.
 */
public class IngestHealthIndicator implements HealthIndicator {

    private final LoopHealth loop;
    private final Duration bound;
    private final boolean progressNeeded;
    private final Clock clock;

    private IngestHealthIndicator(LoopHealth loop, Duration bound, boolean progressNeeded, Clock clock) {
        this.loop = loop;
        this.bound = bound;
        this.progressNeeded = progressNeeded;
        this.clock = clock;
    }

    /** Polling, writing what it polled, and in touch with a broker. */
    public static IngestHealthIndicator readiness(LoopHealth loop, Duration bound, Clock clock) {
        return new IngestHealthIndicator(loop, bound, true, clock);
    }

    /** Polling: an outage of the database or the brokers must not get the instance replaced. */
    public static IngestHealthIndicator liveness(LoopHealth loop, Duration bound, Clock clock) {
        return new IngestHealthIndicator(loop, bound, false, clock);
    }

    @Override
    public Health health() {
        Instant now = clock.instant();
        Duration pollAge = Duration.between(loop.lastPoll(), now);
        Duration progressAge = Duration.between(loop.lastProgress(), now);
        Duration brokerAge = Duration.between(loop.lastBrokerContact(), now);
        boolean up = loop.running() && within(pollAge) && (!progressNeeded || within(brokerAge) && within(progressAge));
        Health.Builder health = up ? Health.up() : Health.down();
        health.withDetail("lastPoll", loop.lastPoll().toString())
                .withDetail("lastPollAgeMs", pollAge.toMillis())
                .withDetail("boundMs", bound.toMillis())
                .withDetail("blockedPartitions", loop.blockedPartitions());
        if (progressNeeded) {
            health.withDetail("inFlight", loop.inFlight())
                    .withDetail("lastProgressAgeMs", progressAge.toMillis())
                    .withDetail("databaseUnreachable", loop.databaseUnreachable())
                    .withDetail("lastBrokerContactAgeMs", brokerAge.toMillis());
            if (loop.lastWriteFailure() != null) {
                health.withDetail("lastWriteFailure", loop.lastWriteFailure());
            }
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

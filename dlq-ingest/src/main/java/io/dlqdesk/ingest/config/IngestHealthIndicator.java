package io.dlqdesk.ingest.config;

import io.dlqdesk.ingest.loop.DlqConsumerLoop;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * Readiness of DLQ ingest, driven by the poll loop's heartbeat: DOWN when the loop has not polled
 * within the bound, whatever the reason (stopped, stuck in a callback, dead thread). Partitions held
 * at a malformed record are listed; they do not make the service unready (the others flow).
 */
public class IngestHealthIndicator implements HealthIndicator {

    private final DlqConsumerLoop loop;
    private final Duration bound;
    private final Clock clock;

    public IngestHealthIndicator(DlqConsumerLoop loop, Duration bound, Clock clock) {
        this.loop = loop;
        this.bound = bound;
        this.clock = clock;
    }

    @Override
    public Health health() {
        Instant heartbeat = loop.lastHeartbeat();
        Duration age = Duration.between(heartbeat, clock.instant());
        boolean polling = loop.running() && age.compareTo(bound) <= 0;
        Health.Builder health = polling ? Health.up() : Health.down();
        health.withDetail("lastPoll", heartbeat.toString())
                .withDetail("lastPollAgeMs", age.toMillis())
                .withDetail("boundMs", bound.toMillis())
                .withDetail("blockedPartitions", loop.blockedPartitions());
        if (loop.lastError() != null) {
            health.withDetail("lastError", loop.lastError());
        }
        return health.build();
    }
}

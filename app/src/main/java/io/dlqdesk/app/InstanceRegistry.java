package io.dlqdesk.app;

import io.dlqdesk.periodic.PeriodicTask;
import org.axonframework.eventhandling.pooled.MaxSegmentProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.jdbc.core.JdbcTemplate;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The instances of this service that share its database, each announced by a heartbeat row. Without
 * Axon Server nothing spreads an event processor's segments: the first instance claims them all and
 * keeps them. As each processor's {@link MaxSegmentProvider} this caps an instance at its share,
 * ceil(segments / live instances); Axon's coordinator releases a surplus and claims up to the share,
 * so a new instance gets work and a dead one's segments are taken over once its heartbeat expired
 * (and its claims timed out). A stopped instance deletes its row, so the others take over at once.
 */
final class InstanceRegistry implements SmartLifecycle, MaxSegmentProvider {

    private static final Logger log = LoggerFactory.getLogger(InstanceRegistry.class);
    /** Claim everything while a processor has no segments yet (its first start creates them). */
    private static final int UNBOUNDED = Short.MAX_VALUE;

    private final JdbcTemplate jdbc;
    private final InstanceProperties properties;
    private final String instanceId = ManagementFactory.getRuntimeMXBean().getName() + "/" + UUID.randomUUID();
    private final Map<String, Integer> segments = new ConcurrentHashMap<>();
    private volatile int liveInstances = 1;
    private final PeriodicTask heartbeats;

    InstanceRegistry(JdbcTemplate jdbc, InstanceProperties properties) {
        this.jdbc = jdbc;
        this.properties = properties;
        this.heartbeats = PeriodicTask.named("instance-heartbeat-").every(properties.heartbeatInterval()).runs(this::heartbeatSafely);
    }

    @Override
    public int getMaxSegments(String processorName) {
        Integer total = segments.get(processorName);
        if (total == null || total == 0) {
            return UNBOUNDED;
        }
        return (total + liveInstances - 1) / liveInstances;
    }

    /** This instance's row key: unique per start (a restarted process is another instance). */
    String instanceId() {
        return instanceId;
    }

    /** Whether the instance has a row refreshed within the expiry (a stopped one deleted its row, a dead one stopped refreshing it). */
    boolean isAlive(String instance) {
        Integer rows = jdbc.queryForObject("SELECT COUNT(*) FROM service_instance WHERE instance_id = ? AND heartbeat_at >= "
                + "TIMESTAMPADD(MICROSECOND, ?, UTC_TIMESTAMP(6))", Integer.class, instance, -properties.expiry().toNanos() / 1000);
        return rows != null && rows > 0;
    }

    Duration expiry() {
        return properties.expiry();
    }

    /** Refreshes this instance's row and reads how many are alive and how many segments each processor has. */
    void heartbeat() {
        jdbc.update("INSERT INTO service_instance (instance_id, started_at, heartbeat_at) VALUES (?, UTC_TIMESTAMP(6), UTC_TIMESTAMP(6)) "
                + "ON DUPLICATE KEY UPDATE heartbeat_at = UTC_TIMESTAMP(6)", instanceId);
        Integer live = jdbc.queryForObject("SELECT COUNT(*) FROM service_instance WHERE heartbeat_at >= "
                + "TIMESTAMPADD(MICROSECOND, ?, UTC_TIMESTAMP(6))", Integer.class, -properties.expiry().toNanos() / 1000);
        jdbc.query("SELECT processor_name, COUNT(*) FROM token_entry GROUP BY processor_name",
                row -> {
                    segments.put(row.getString(1), row.getInt(2));
                });
        int now = Math.max(1, live == null ? 1 : live);
        if (now != liveInstances) {
            log.info("{} instance(s) of the service share the event processors now (was {})", now, liveInstances);
        }
        liveInstances = now;
    }

    private void heartbeatSafely() {
        try {
            heartbeat();
        } catch (RuntimeException e) { // the database is away: keep the last count, the claims time out anyway
            log.warn("instance heartbeat failed, retrying in {}: {}", properties.heartbeatInterval(), e.toString());
        }
    }

    @Override
    public synchronized void start() {
        try { // rows of instances killed long ago: nobody else removes them
            jdbc.update("DELETE FROM service_instance WHERE heartbeat_at < TIMESTAMPADD(DAY, -1, UTC_TIMESTAMP(6))");
        } catch (RuntimeException e) {
            log.warn("could not remove the rows of instances gone for a day: {}", e.toString());
        }
        heartbeatSafely(); // before the processors claim: a second instance starts with its share
        heartbeats.start();
    }

    @Override
    public synchronized void stop() {
        if (!heartbeats.isRunning()) {
            return;
        }
        heartbeats.stop();
        try {
            jdbc.update("DELETE FROM service_instance WHERE instance_id = ?", instanceId);
        } catch (RuntimeException e) {
            log.warn("could not remove this instance's row; the others count it dead after {}: {}", properties.expiry(), e.toString());
        }
    }

    @Override
    public boolean isRunning() {
        return heartbeats.isRunning();
    }

    /** Started before Axon's processors, stopped after them: their claims are released before the row goes. */
    @Override
    public int getPhase() {
        return Integer.MIN_VALUE + 1000;
    }
}

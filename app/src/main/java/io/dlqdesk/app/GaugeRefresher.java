package io.dlqdesk.app;

import io.dlqdesk.periodic.PeriodicTask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Refreshes the database-backed gauge families on one thread, every interval, one after another, so a
 * scrape never runs a query and at most one refresh query per instance is in the database at a time.
 * A family that fails keeps its last values; its failure is logged once, and its recovery once.
 */
final class GaugeRefresher implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(GaugeRefresher.class);

    private final Map<String, Runnable> families;
    // owned by the refreshing thread
    private final Set<String> failing = new HashSet<>();
    private final PeriodicTask rounds;

    GaugeRefresher(Map<String, Runnable> families, Duration interval) {
        this.families = new LinkedHashMap<>(families);
        this.rounds = PeriodicTask.named("gauge-refresh-").firstAfter(Duration.ZERO).every(interval).runs(this::refreshAll);
    }

    /** Every family once, in order; public to the package for tests that do not wait for the schedule. */
    void refreshAll() {
        families.forEach((name, refresh) -> {
            try {
                refresh.run();
                if (failing.remove(name)) {
                    log.info("gauges {} refreshed again", name);
                }
            } catch (RuntimeException e) {
                if (failing.add(name)) {
                    log.warn("gauges {} could not be refreshed; they keep their last values until a refresh succeeds: {}", name, e.toString());
                }
            }
        });
    }

    @Override
    public void start() {
        rounds.start();
    }

    @Override
    public void stop() {
        rounds.stop();
    }

    @Override
    public boolean isRunning() {
        return rounds.isRunning();
    }
}

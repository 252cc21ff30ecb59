package io.dlqdesk.app;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.scheduling.concurrent.CustomizableThreadFactory;

import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Refreshes the database-backed gauge families on one thread, every interval, one after another, so a
 * scrape never runs a query and at most one refresh query per instance is in the database at a time.
 * A family that fails keeps its last values; its failure is logged once, and its recovery once.
 */
final class GaugeRefresher implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(GaugeRefresher.class);

    private final Map<String, Runnable> families;
    private final Duration interval;
    // owned by the refreshing thread
    private final Set<String> failing = new HashSet<>();
    private ScheduledExecutorService scheduler;

    GaugeRefresher(Map<String, Runnable> families, Duration interval) {
        this.families = new LinkedHashMap<>(families);
        this.interval = interval;
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

    private void refreshAllSafely() {
        try {
            refreshAll();
        } catch (Throwable e) { // anything escaping would cancel the schedule silently
            log.error("gauge refresh failed", e);
        }
    }

    @Override
    public synchronized void start() {
        CustomizableThreadFactory threads = new CustomizableThreadFactory("gauge-refresh-");
        threads.setDaemon(true);
        scheduler = Executors.newSingleThreadScheduledExecutor(threads);
        scheduler.scheduleWithFixedDelay(this::refreshAllSafely, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void stop() {
        if (scheduler != null) {
            scheduler.shutdownNow();
            scheduler = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return scheduler != null;
    }
}

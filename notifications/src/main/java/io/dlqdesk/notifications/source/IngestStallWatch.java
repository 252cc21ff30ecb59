package io.dlqdesk.notifications.source;

import io.dlqdesk.notifications.Notification;
import io.dlqdesk.notifications.NotificationEvent;
import io.dlqdesk.notifications.delivery.Deliveries;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.Status;
import org.springframework.context.SmartLifecycle;
import org.springframework.scheduling.concurrent.CustomizableThreadFactory;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Ingest stalls are not events of the event store: this watch reads the instance's ingest readiness every interval
 * and turns its transitions (ready → not ready: {@code ingest-stalled}; back: {@code ingest-recovered}) into
 * notifications on the same durable path, the delivery table. A transition noticed while the database is away (often
 * the very cause) is kept in memory and written once the database answers, in order. Owned by its one thread.
 */
public final class IngestStallWatch implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(IngestStallWatch.class);
    private static final List<String> DETAILS = List.of("inFlight", "lastPollAgeMs", "lastProgressAgeMs", "lastBrokerContactAgeMs",
            "databaseUnreachable", "lastWriteFailure", "lastError", "blockedPartitions");
    private static final int MAX_DETAIL = 300;

    private final Supplier<Health> readiness;
    private final Deliveries deliveries;
    private final TransactionTemplate transactions;
    private final Duration interval;
    private final String instance;
    private final Clock clock;
    private final Deque<Notification> unwritten = new ArrayDeque<>();
    private Instant stalledSince;
    private boolean writeFailing;
    private ScheduledExecutorService thread;

    public IngestStallWatch(Supplier<Health> readiness, Deliveries deliveries, TransactionTemplate transactions, Duration interval, String instance,
                            Clock clock) {
        this.readiness = readiness;
        this.deliveries = deliveries;
        this.transactions = transactions;
        this.interval = interval;
        this.instance = instance.length() > 100 ? instance.substring(0, 100) : instance;
        this.clock = clock;
    }

    /** One look; package-visible for tests that do not wait for the schedule. */
    void check() {
        Health health = readiness.get();
        Instant now = clock.instant();
        boolean ready = Status.UP.equals(health.getStatus());
        if (!ready && stalledSince == null) {
            stalledSince = now;
            unwritten.add(stalled(health, now));
        } else if (ready && stalledSince != null) {
            unwritten.add(recovered(stalledSince, now));
            stalledSince = null;
        }
        writePending();
    }

    private void writePending() {
        while (!unwritten.isEmpty()) {
            Notification next = unwritten.peek();
            try {
                transactions.executeWithoutResult(status -> deliveries.enqueue(next));
            } catch (RuntimeException e) {
                if (!writeFailing) {
                    log.warn("could not record {} yet; trying again every {}: {}", next.id(), interval, e.toString());
                }
                writeFailing = true;
                return;
            }
            writeFailing = false;
            unwritten.poll();
        }
    }

    private Notification stalled(Health health, Instant since) {
        Map<String, Object> facts = new LinkedHashMap<>();
        facts.put("instance", instance);
        facts.put("since", since.toString());
        for (String detail : DETAILS) {
            Object value = health.getDetails().get(detail);
            if (value != null) {
                String text = String.valueOf(value);
                facts.put(detail, text.length() > MAX_DETAIL ? text.substring(0, MAX_DETAIL) + "…" : text);
            }
        }
        return new Notification("ingest-stalled:" + instance + ":" + since.toEpochMilli(), NotificationEvent.INGEST_STALLED, since,
                "DLQ ingest on " + instance + " is not ready: it stopped polling, lost its brokers, or holds records and writes none"
                        + " (see the facts and /actuator/health/readiness)", null, facts);
    }

    private Notification recovered(Instant since, Instant now) {
        Map<String, Object> facts = new LinkedHashMap<>();
        facts.put("instance", instance);
        facts.put("stalledSince", since.toString());
        facts.put("recoveredAt", now.toString());
        facts.put("stalledForSeconds", Duration.between(since, now).toSeconds());
        return new Notification("ingest-recovered:" + instance + ":" + since.toEpochMilli(), NotificationEvent.INGEST_RECOVERED, now,
                "DLQ ingest on " + instance + " is ready again after " + Duration.between(since, now).toSeconds() + " s", null, facts);
    }

    private void checkSafely() {
        try {
            check();
        } catch (Throwable e) { // anything escaping would cancel the schedule silently
            log.error("ingest stall check failed", e);
        }
    }

    @Override
    public synchronized void start() {
        CustomizableThreadFactory threads = new CustomizableThreadFactory("ingest-stall-watch-");
        threads.setDaemon(true);
        thread = Executors.newSingleThreadScheduledExecutor(threads);
        thread.scheduleWithFixedDelay(this::checkSafely, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void stop() {
        if (thread != null) {
            thread.shutdownNow();
            thread = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return thread != null;
    }
}

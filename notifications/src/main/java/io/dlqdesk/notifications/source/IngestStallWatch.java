package io.dlqdesk.notifications.source;

import io.dlqdesk.notifications.Notification;
import io.dlqdesk.notifications.NotificationEvent;
import io.dlqdesk.notifications.delivery.Deliveries;
import io.dlqdesk.periodic.PeriodicTask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.Status;
import org.springframework.context.SmartLifecycle;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Ingest stalls are not events of the event store: this watch reads the instance's ingest readiness every interval
 * and turns its transitions (ready → not ready: {@code ingest-stalled}; back: {@code ingest-recovered}) into
 * notifications on the same durable path, the delivery table. A transition noticed while the database is away (often
 * the very cause) is kept in memory and written once the database answers, in order; an instance stopped before then
 * takes it along (nothing durable could hold it). A written stall is also an open row in {@link OpenStalls}, ended with
 * its recovery; the stall of an instance that is gone without writing its recovery is ended by a live one, with the
 * {@code ingest-recovered} that instance would have sent (the same id, {@code reason: instance-gone}). Owned by its one thread.
 */
public final class IngestStallWatch implements SmartLifecycle {

    /**
     * This instance's name in the service's heartbeat table, whether a named instance still has a live heartbeat there,
     * and after how long without one an instance counts as gone.
     */
    public record Instances(String self, Predicate<String> alive, Duration expiry) {
    }

    private static final Logger log = LoggerFactory.getLogger(IngestStallWatch.class);
    private static final List<String> DETAILS = List.of("inFlight", "lastPollAgeMs", "lastProgressAgeMs", "lastBrokerContactAgeMs",
            "databaseUnreachable", "lastWriteFailure", "lastError", "blockedPartitions");
    private static final int MAX_DETAIL = 300;
    private static final int MAX_INSTANCE_LABEL = 100;

    /** A notification to write and what it does to its instance's open stall. */
    private record Transition(Notification notification, Instant since, boolean opens) {
    }

    private final Supplier<Health> readiness;
    private final Deliveries deliveries;
    private final OpenStalls stalls;
    private final TransactionTemplate transactions;
    private final Duration interval;
    private final Instances instances;
    private final Clock clock;
    private final Deque<Transition> unwritten = new ArrayDeque<>();
    private Instant stalledSince;
    /** Since when every look at the database worked: only after {@code expiry} of that may a missing heartbeat mean "gone". */
    private Instant reachableSince;
    private boolean writeFailing;
    private final PeriodicTask rounds;

    public IngestStallWatch(Supplier<Health> readiness, Deliveries deliveries, JdbcTemplate jdbc, TransactionTemplate transactions, Duration interval,
                            Instances instances, Clock clock) {
        this.readiness = readiness;
        this.deliveries = deliveries;
        this.stalls = new OpenStalls(jdbc);
        this.transactions = transactions;
        this.interval = interval;
        this.instances = instances;
        this.clock = clock;
        this.rounds = PeriodicTask.named("ingest-stall-watch-").every(interval).runs(this::check);
    }

    /** One look; package-visible for tests that do not wait for the schedule. */
    void check() {
        Health health = readiness.get();
        Instant now = clock.instant();
        boolean ready = Status.UP.equals(health.getStatus());
        if (!ready && stalledSince == null) {
            stall(health, now);
        } else if (ready && stalledSince != null) {
            unwritten.add(new Transition(recovered(stalledSince, now), stalledSince, false));
            stalledSince = null;
        }
        if (writePending()) {
            lookAtOpenStalls(health, now);
        }
    }

    private void stall(Health health, Instant now) {
        stalledSince = now;
        unwritten.add(new Transition(stalled(health, now), now, true));
    }

    /** True when everything noticed is written. */
    private boolean writePending() {
        while (!unwritten.isEmpty()) {
            Transition next = unwritten.peek();
            try {
                transactions.executeWithoutResult(status -> {
                    deliveries.enqueue(next.notification());
                    if (next.opens()) {
                        stalls.opened(instances.self(), next.since());
                    } else {
                        stalls.ended(instances.self(), next.since().toEpochMilli());
                    }
                });
            } catch (RuntimeException e) {
                unreachable("could not record " + next.notification().id() + " yet", e);
                return false;
            }
            writeFailing = false;
            unwritten.poll();
        }
        return true;
    }

    /**
     * Ends the open stalls of instances that are gone, and announces this instance's stall again if another ended it
     * meanwhile (it was taken for gone while it could not reach the database, and is still stalled).
     */
    private void lookAtOpenStalls(Health health, Instant now) {
        try {
            List<OpenStalls.Stall> open = stalls.all();
            if (reachableSince == null) {
                reachableSince = now;
            }
            writeFailing = false;
            if (stalledSince != null && open.stream().noneMatch(stall -> stall.is(instances.self(), stalledSince))
                    && instances.alive().test(instances.self())) {
                log.info("the ingest stall of {} since {} was ended by another instance while this one was not heard from; it is announced again",
                        instances.self(), stalledSince);
                stall(health, now);
                writePending();
            }
            if (Duration.between(reachableSince, now).compareTo(instances.expiry()) < 0) {
                return; // after an outage every heartbeat is old: give the living time to refresh theirs
            }
            for (OpenStalls.Stall stall : open) {
                if (!stall.instance().equals(instances.self()) && !instances.alive().test(stall.instance())) {
                    endForGone(stall, now);
                }
            }
        } catch (RuntimeException e) {
            unreachable("could not look at the open ingest stalls", e);
        }
    }

    private void endForGone(OpenStalls.Stall stall, Instant now) {
        boolean ended = Boolean.TRUE.equals(transactions.execute(status -> {
            if (!stalls.ended(stall.instance(), stall.sinceMillis())) {
                return false; // ended meanwhile, by itself or another instance
            }
            deliveries.enqueue(gone(stall, now));
            return true;
        }));
        if (ended) {
            log.info("ingest stall of instance {} (since {}) ended: that instance is gone (no heartbeat within {})", stall.instance(),
                    Instant.ofEpochMilli(stall.sinceMillis()), instances.expiry());
        }
    }

    private void unreachable(String what, RuntimeException e) {
        if (!writeFailing) {
            log.warn("{}; trying again every {}: {}", what, interval, e.toString());
        }
        writeFailing = true;
        reachableSince = null;
    }

    private Notification stalled(Health health, Instant since) {
        String instance = label(instances.self());
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
        String instance = label(instances.self());
        Map<String, Object> facts = new LinkedHashMap<>();
        facts.put("instance", instance);
        facts.put("reason", "ready");
        facts.put("stalledSince", since.toString());
        facts.put("recoveredAt", now.toString());
        facts.put("stalledForSeconds", Duration.between(since, now).toSeconds());
        return new Notification(recoveredId(instances.self(), since.toEpochMilli()), NotificationEvent.INGEST_RECOVERED, now,
                "DLQ ingest on " + instance + " is ready again after " + Duration.between(since, now).toSeconds() + " s", null, facts);
    }

    /** The end of a gone instance's stall, under the id its own recovery would have had: a receiver gets one end per stall. */
    private Notification gone(OpenStalls.Stall stall, Instant now) {
        String instance = label(stall.instance());
        Instant since = Instant.ofEpochMilli(stall.sinceMillis());
        Map<String, Object> facts = new LinkedHashMap<>();
        facts.put("instance", instance);
        facts.put("reason", "instance-gone");
        facts.put("stalledSince", since.toString());
        facts.put("endedAt", now.toString());
        facts.put("endedBy", label(instances.self()));
        return new Notification(recoveredId(stall.instance(), stall.sinceMillis()), NotificationEvent.INGEST_RECOVERED, now,
                "DLQ ingest on " + instance + " is stalled no more: that instance is gone (stopped, killed or replaced; no heartbeat for "
                        + instances.expiry().toSeconds() + " s), so its stall since " + since + " ends here; its DLQ partitions go to the"
                        + " live instances, which report stalls of their own", null, facts);
    }

    private static String recoveredId(String instance, long sinceMillis) {
        return "ingest-recovered:" + label(instance) + ":" + sinceMillis;
    }

    private static String label(String instance) {
        return instance.length() > MAX_INSTANCE_LABEL ? instance.substring(0, MAX_INSTANCE_LABEL) : instance;
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

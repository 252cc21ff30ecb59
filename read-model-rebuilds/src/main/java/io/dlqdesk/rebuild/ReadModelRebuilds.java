package io.dlqdesk.rebuild;

import io.dlqdesk.domain.InvalidValueException;
import io.dlqdesk.domain.incident.OperatorAction;
import io.dlqdesk.domain.parked.EventParked;
import io.dlqdesk.domain.parked.ParkedEvent;
import io.dlqdesk.domain.rebuild.ReadModelRebuildCancelled;
import io.dlqdesk.domain.rebuild.ReadModelRebuildRequested;
import io.dlqdesk.parked.ParkingPolicy;
import io.dlqdesk.periodic.PeriodicTask;
import io.dlqdesk.projections.ReadModelSet;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.EventBus;
import org.axonframework.eventhandling.EventProcessor;
import org.axonframework.eventhandling.GenericEventMessage;
import org.axonframework.eventhandling.tokenstore.TokenStore;
import org.axonframework.eventsourcing.eventstore.EventStorageEngine;
import org.axonframework.serialization.Serializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.context.SmartLifecycle;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

import javax.sql.DataSource;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Bulk (blue/green) rebuilds of a processor's read models beside it: one at a time across the instances, each on a thread
 * of its own. A run's row is its lease: refreshed every few seconds by its instance; a running row whose heartbeat stopped
 * for {@link #LEASE} was interrupted (the instance died) and is ended as failed, its shadow tables dropped; the live tables
 * were never touched. A row in SWAPPING has its processor's tokens stored already: any instance that sees it, but the one
 * running it, finishes its rename (at start, before the processors run, and every few seconds); twice is harmless.
 */
public class ReadModelRebuilds implements SmartLifecycle, SmartInitializingSingleton {

    private static final Logger log = LoggerFactory.getLogger(ReadModelRebuilds.class);
    static final Duration LEASE = Duration.ofSeconds(30);
    private static final Duration HEARTBEAT = Duration.ofSeconds(5);

    private final DataSource dataSource;
    private final JdbcTemplate live;
    private final RebuildRows rows;
    private final String shadowSchema;
    private final EventStorageEngine events;
    private final EventProcessingConfiguration processing;
    private final TokenStore tokens;
    private final TransactionTemplate liveTransaction;
    private final Serializer serializer;
    private final EventBus eventBus;
    private final ParkingPolicy policy;
    private final Clock clock;
    private final String owner = instanceName();
    private final ExecutorService runner = Executors.newSingleThreadExecutor(r -> {
        Thread thread = new Thread(r, "read-model-rebuild");
        thread.setDaemon(true);
        return thread;
    });
    private final PeriodicTask heartbeats;
    private final AtomicReference<RebuildRun> current = new AtomicReference<>();
    /** The rebuild this instance runs or is about to run: its row is not abandoned. */
    private final AtomicReference<String> active = new AtomicReference<>();
    /** The live and shadow schemas' names, read from the database once. */
    private volatile Schemas schemas;

    private record Schemas(String live, String shadow) {
    }
    private volatile boolean stopping;
    private volatile boolean running;

    public ReadModelRebuilds(DataSource dataSource, TransactionTemplate liveTransaction, String shadowSchema, EventStorageEngine events,
                             EventProcessingConfiguration processing, TokenStore tokens, Serializer serializer, EventBus eventBus,
                             ParkingPolicy policy, MeterRegistry meters, Clock clock) {
        this.dataSource = dataSource;
        this.live = new JdbcTemplate(dataSource);
        this.clock = clock;
        this.rows = new RebuildRows(live, clock);
        this.shadowSchema = shadowSchema;
        this.events = events;
        this.processing = processing;
        this.tokens = tokens;
        this.liveTransaction = liveTransaction;
        this.serializer = serializer;
        this.eventBus = eventBus;
        this.policy = policy;
        this.heartbeats = PeriodicTask.named("read-model-rebuild-lease-").every(HEARTBEAT).runs(this::heartbeat);
        Gauge.builder("dlq.rebuild.active", current, run -> run.get() == null ? 0 : 1)
                .description("1 while this instance runs a bulk rebuild of read models").register(meters);
        Gauge.builder("dlq.rebuild.events.read", current, run -> run.get() == null ? 0 : run.get().eventsRead())
                .description("events the running bulk rebuild on this instance has folded").register(meters);
    }

    /** The processors whose read models can be rebuilt. */
    public List<String> processors() {
        return ReadModelSet.all().stream().map(ReadModelSet::processor).toList();
    }

    /** Starts a rebuild of {@code processor}'s read models; refused while any rebuild runs. */
    public synchronized RebuildView start(String processor, OperatorAction by) {
        if (processor == null || processor.isBlank()) {
            throw new InvalidValueException("a processor is required, one of: " + String.join(", ", processors()));
        }
        if (processor.length() > ParkedEvent.MAX_NAME_LENGTH) { // not echoed back: it names nothing anyway
            throw new InvalidValueException("a processor's name is at most " + ParkedEvent.MAX_NAME_LENGTH + " characters; these are: "
                    + String.join(", ", processors()));
        }
        ReadModelSet set = ReadModelSet.of(processor).orElseThrow(() -> new InvalidValueException("no read models are built by processor '"
                + processor + "'; these are: " + String.join(", ", processors())));
        if (stopping || !running) {
            throw new RebuildRefusedException("the service is not running rebuilds (starting or stopping)");
        }
        recover();
        List<RebuildView> others = rows.running();
        if (!others.isEmpty()) {
            RebuildView other = others.get(0);
            throw new RebuildRefusedException("rebuild " + other.id() + " of " + other.processor() + " is " + other.phase()
                    + "; one rebuild runs at a time");
        }
        String id = UUID.randomUUID().toString();
        try {
            rows.insert(id, processor, by.principal(), by.reason(), owner);
        } catch (DuplicateKeyException e) {
            throw new RebuildRefusedException("another rebuild has just started; one rebuild runs at a time");
        }
        active.set(id);
        eventBus.publish(GenericEventMessage.asEventMessage(new ReadModelRebuildRequested(id, processor, by)));
        log.info("bulk rebuild {} of {} requested by {}: {}", id, processor, by.principal(), by.reason());
        runner.execute(() -> run(id, set));
        return find(id).orElseThrow();
    }

    public Optional<RebuildView> find(String id) {
        return rows.find(id);
    }

    public List<RebuildView> recent(int limit) {
        return rows.recent(limit);
    }

    /** Cancels a rebuild before its swap: its shadow tables are dropped, the live ones were never touched. */
    public RebuildView cancel(String id, OperatorAction by) {
        RebuildView rebuild = find(id).orElseThrow(() -> new RebuildNotFoundException(id));
        if (!rows.cancel(id, by.principal())) {
            throw new RebuildRefusedException("rebuild " + id + " is " + find(id).map(RebuildView::phase).orElse(rebuild.phase())
                    + ": only a rebuild before its swap can be cancelled");
        }
        eventBus.publish(GenericEventMessage.asEventMessage(new ReadModelRebuildCancelled(id, rebuild.processor(), by)));
        log.info("bulk rebuild {} of {} cancelled by {}: {}", id, rebuild.processor(), by.principal(), by.reason());
        return find(id).orElseThrow();
    }

    private void run(String id, ReadModelSet set) {
        ShadowTables shadow = shadowTables(set);
        try {
            shadow.create();
            try (GroupFolds folds = GroupFolds.open(set, dataSource, shadow.shadowSchema(), policy)) {
                RebuildRun run = new RebuildRun(id, set, rows, shadow, folds, events, processing, tokens, liveTransaction, serializer,
                        () -> stopping);
                current.set(run);
                run.run(headIndex());
                announce(folds.announcements());
            }
        } catch (RebuildRun.SwapUnfinished e) {
            log.error("{}", e.getMessage(), e);
        } catch (RebuildCancelled e) {
            rows.end(id, RebuildPhase.FAILED, e.getMessage()); // no-op when cancelled: the row ended already
            dropQuietly(shadow);
        } catch (Exception | Error e) { // an Error too: the row must not stay running while the lease holds
            log.error("bulk rebuild {} of {} failed; the live tables are as they were", id, set.processor(), e);
            rows.end(id, RebuildPhase.FAILED, describe(e));
            dropQuietly(shadow);
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
        } finally { // the next rebuild may have been asked for already, once this one's row said it ended
            current.set(null);
            active.compareAndSet(id, null);
        }
    }

    /** Interrupted rows ended, and unfinished swaps finished. */
    synchronized void recover() {
        for (RebuildView rebuild : rows.running()) {
            ReadModelSet set = ReadModelSet.of(rebuild.processor()).orElse(null);
            if (set == null) {
                rows.end(rebuild.id(), RebuildPhase.FAILED, "no read model set is named " + rebuild.processor() + " any more");
                continue;
            }
            if (rebuild.id().equals(active.get())) {
                continue; // this instance's run: it finishes or ends it itself
            }
            ShadowTables shadow = shadowTables(set);
            if (rebuild.phase() == RebuildPhase.SWAPPING) { // its tokens are stored: whoever sees it finishes it, at once
                RebuildRun.finishSwap(rebuild.id(), shadow, rows);
                log.warn("bulk rebuild {} of {}: its swap was interrupted after the tokens were stored; the rename is finished now",
                        rebuild.id(), rebuild.processor());
                if (running) { // at start the processors are not running yet: they start from the stored tokens, on the new tables
                    processing.eventProcessor(set.processor()).filter(p -> !p.isRunning()).ifPresent(EventProcessor::start);
                }
                continue;
            }
            boolean abandoned = rebuild.heartbeatAt().isBefore(clock.instant().minus(LEASE)) || rebuild.runsOn().equals(owner);
            if (!abandoned) {
                continue; // its instance runs it
            }
            if (rows.end(rebuild.id(), RebuildPhase.FAILED, "interrupted in " + rebuild.phase() + ": its instance stopped running it"
                    + " (stopped or died); the live tables were not touched; start a new rebuild")) {
                dropQuietly(shadow);
                log.warn("bulk rebuild {} of {} was interrupted in {}; ended as failed", rebuild.id(), rebuild.processor(), rebuild.phase());
            }
        }
    }

    private void heartbeat() {
        if (active.get() != null) { // only a run of this instance has a row to renew
            rows.heartbeat(owner);
        }
        recover();
    }

    private void announce(List<EventParked> parked) {
        for (EventParked event : parked) {
            try {
                eventBus.publish(GenericEventMessage.asEventMessage(event));
            } catch (RuntimeException e) { // parked all the same: the list and the gauge show it
                log.error("an event the rebuild parked could not be announced: {}", event, e);
            }
        }
    }

    /** Host and process, so a person can tell which instance runs a rebuild; unique per start. */
    private static String instanceName() {
        String host = System.getenv().getOrDefault("HOSTNAME", "instance"); // no name lookup: it could ask a DNS server
        String name = host + "/" + ProcessHandle.current().pid() + "/" + UUID.randomUUID().toString().substring(0, 8);
        return name.length() <= RebuildView.MAX_RUNS_ON_LENGTH ? name : name.substring(name.length() - RebuildView.MAX_RUNS_ON_LENGTH);
    }

    /** In the shadow schema: configured, or the live schema's name with {@code _rebuild}. */
    private ShadowTables shadowTables(ReadModelSet set) {
        Schemas names = schemas;
        if (names == null) {
            String liveSchema = live.queryForObject("SELECT DATABASE()", String.class);
            names = new Schemas(liveSchema, shadowSchema.isBlank() ? liveSchema + "_rebuild" : shadowSchema);
            schemas = names;
        }
        return new ShadowTables(live, names.live(), names.shadow(), set.tables());
    }

    private long headIndex() {
        Long head = live.queryForObject("SELECT COALESCE(MAX(global_index), 0) - COALESCE(MIN(global_index), 1) + 1 FROM domain_event_entry",
                Long.class);
        return head == null ? 0 : Math.max(0, head);
    }

    private void dropQuietly(ShadowTables shadow) {
        try {
            shadow.drop();
        } catch (RuntimeException e) {
            log.warn("the shadow tables of a rebuild could not be dropped; the next rebuild drops them", e);
        }
    }

    private static String describe(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return e.getClass().getSimpleName() + ": " + e.getMessage() + (root == e ? "" : " (" + root.getClass().getSimpleName() + ": "
                + root.getMessage() + ")");
    }

    /** Before any lifecycle starts, so before the event processors: a swap a restart interrupted is finished first. */
    @Override
    public void afterSingletonsInstantiated() {
        recover();
    }

    /** After Axon's processors have started, and stopped (a run under way ended) before they stop. */
    @Override
    public int getPhase() {
        return SmartLifecycle.DEFAULT_PHASE;
    }

    @Override
    public void start() {
        running = true;
        heartbeats.start();
    }

    @Override
    public void stop() {
        stopping = true;
        running = false;
        heartbeats.stop();
        runner.shutdown();
        try {
            if (!runner.awaitTermination(30, TimeUnit.SECONDS)) {
                runner.shutdownNow();
            }
        } catch (InterruptedException e) {
            runner.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}

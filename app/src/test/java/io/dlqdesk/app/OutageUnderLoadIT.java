package io.dlqdesk.app;

import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.testsupport.DatabaseServer;
import io.dlqdesk.testsupport.DltRecord;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.jdbc.core.JdbcTemplate;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The broker, then the database, restarted under steady ingest and replay load: readiness goes DOWN
 * while the DLQ loop cannot make progress and UP again after; every acknowledged DLQ record is exactly
 * one incident, every replay is decided and applied once downstream.
 */
@RealInfrastructure
class OutageUnderLoadIT {

    @RegisterExtension
    final FaultRun run = new FaultRun("load");

    private static final String GROUP = "billing";
    private static final String REPLAYED_GROUP = "orders-service";
    private static final int REPLAYS = 60;
    /** Twice the service's readiness timeout in this run (5 s, {@link FaultRuns#service}): readiness must be seen DOWN in it. */
    private static final Duration OUTAGE = Duration.ofSeconds(10);

    @Test
    void brokerAndDatabaseRestartedUnderLoadReadinessFollowsAndNothingIsLostOrDoubled(TestDatabase database, DatabaseServer server,
                                                                                        KafkaBroker broker) throws Exception {
        Assumptions.assumeTrue(server.restartable() && broker.restartable(), "needs servers the tests may stop");
        String dlqTopic = run.dlqTopic();
        String source = run.topic("replayed");
        IngestLedger.createTopic(broker, dlqTopic, 2, Map.of());
        IngestLedger.createTopic(broker, source, 2, Map.of());
        Map<String, String> replayable = FaultRuns.replayableFailures(broker, source, dlqTopic, REPLAYED_GROUP, REPLAYS);
        // a short pool wait: an unreachable database shows as failed writes within 2 s
        Map<String, Object> settings = FaultRuns.service(database, broker, run, Map.of("dlqdesk.replay.poll-interval", "100ms",
                "dlqdesk.replay.reconciliation-delay", "10s", "spring.datasource.hikari.connection-timeout", "2000"));
        JdbcTemplate jdbc = FaultRuns.jdbc(database);

        try (ServiceProcess service = ServiceProcess.start("outage-under-load", settings);
             Downstream downstream = Downstream.startAtTheEnd(broker, source, REPLAYED_GROUP);
             Load load = new Load(broker, dlqTopic, run.topic("orders"), service, replayable.keySet())) {
            service.awaitReady(FaultRun.START);
            await().atMost(Duration.ofMinutes(2)).until(() -> FaultRuns.count(jdbc, "SELECT COUNT(*) FROM incident_summary WHERE topic = ?", source) == REPLAYS);
            FaultRuns.replaySwitchOn(service);
            load.start();
            Thread.sleep(5_000);
            assertThat(load.readiness(0, System.nanoTime())).as("ready under load before any outage").containsOnly(true);

            Duration brokerRecovery = outage(load, broker::stop, broker::start);
            Duration databaseRecovery = outage(load, server::stop, server::start);
            Thread.sleep(5_000);
            load.close();

            long drainFrom = System.nanoTime();
            List<FailureKey> sent = List.copyOf(load.acknowledged);
            await().atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofSeconds(1))
                    .until(() -> FaultRuns.openedPerIncident(jdbc).size() >= sent.size() + REPLAYS);
            await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofSeconds(1))
                    .until(() -> FaultRuns.decided(jdbc) >= load.requested.size());
            Map<String, String> published = FaultRuns.publishedEventIds(jdbc, replayable);
            await().atMost(Duration.ofMinutes(2)).until(() -> downstream.applied().keySet().containsAll(published.values()));
            Duration drained = Duration.ofNanos(System.nanoTime() - drainFrom);

            List<String> expected = new ArrayList<>(FaultRuns.ids(sent));
            expected.addAll(replayable.keySet());
            FaultRuns.Tally tally = FaultRuns.tally(expected, FaultRuns.openedPerIncident(jdbc));
            long lostReplays = load.requested.size() - published.size();
            String note = String.format("%d DLQ records and %d replays under load; readiness UP again %.1f s after the broker and %.1f s after "
                            + "the database came back; backlog drained %.1f s after the load stopped; %d replays PUBLISHED",
                    sent.size(), load.requested.size(), brokerRecovery.toMillis() / 1000.0, databaseRecovery.toMillis() / 1000.0,
                    drained.toMillis() / 1000.0, published.size());
            FaultRuns.report("broker and database restarts under load", sent.size() + load.requested.size(), tally.duplicates(),
                    tally.lost() + lostReplays, brokerRecovery.plus(databaseRecovery), note);
            assertThat(load.requested).as("replays requested under load").hasSizeGreaterThanOrEqualTo(10);
            assertThat(tally.duplicates()).as("duplicate incidents").isZero();
            assertThat(tally.lost()).as("acknowledged DLQ records without an incident").isZero();
            assertThat(lostReplays).as("requested replays not PUBLISHED").isZero();
            assertThat(downstream.applied().values()).as("applied once").containsOnly(1);
        }
    }

    /**
     * Takes a server away for {@link #OUTAGE}: readiness must go DOWN meanwhile (the DLQ loop cannot make
     * progress) and come UP again after; how long after the server was back, it took.
     */
    private static Duration outage(Load load, Runnable stop, Runnable start) throws Exception {
        long down = System.nanoTime();
        stop.run();
        try {
            Thread.sleep(OUTAGE.toMillis());
        } finally {
            start.run();
        }
        long back = System.nanoTime();
        assertThat(load.readiness(down, back)).as("readiness while the server was away").contains(false);
        await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(250)).until(load.service::ready);
        Duration recovered = Duration.ofNanos(System.nanoTime() - back);
        Thread.sleep(3_000);
        assertThat(load.readiness(System.nanoTime() - 2_500_000_000L, System.nanoTime())).as("readiness after recovery").containsOnly(true);
        return recovered;
    }

    /** DLQ records at about 40 a second, two replay requests about every half second, and readiness sampled every 250 ms. */
    private static final class Load implements AutoCloseable {

        private record Sample(long nanos, boolean ready) {
        }

        final List<FailureKey> acknowledged = new CopyOnWriteArrayList<>();
        final Set<String> requested = ConcurrentHashMap.newKeySet();
        final ServiceProcess service;
        private final List<Sample> samples = new CopyOnWriteArrayList<>();
        private final KafkaProducer<byte[], byte[]> producer;
        private final String dlqTopic;
        private final String original;
        private final Deque<String> toReplay;
        private final List<Thread> threads = new ArrayList<>();
        private volatile boolean running;

        Load(KafkaBroker broker, String dlqTopic, String original, ServiceProcess service, Set<String> replayable) {
            // an outage must not fail a send: it waits for the broker (acks=all, idempotent)
            this.producer = IngestLedger.producer(broker, Map.of(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 300_000,
                    ProducerConfig.MAX_BLOCK_MS_CONFIG, 300_000));
            this.dlqTopic = dlqTopic;
            this.original = original;
            this.service = service;
            this.toReplay = new ConcurrentLinkedDeque<>(replayable);
        }

        void start() {
            running = true;
            threads.add(FaultRuns.daemon("dlq-load", this::produce));
            threads.add(FaultRuns.daemon("replay-load-1", this::replay));
            threads.add(FaultRuns.daemon("replay-load-2", this::replay));
            threads.add(FaultRuns.daemon("readiness-sampler", this::sample));
        }

        private void produce() {
            long offset = 0;
            while (running) {
                for (int partition = 0; partition < 2 && running; partition++) {
                    FailureKey key = new FailureKey(original, partition, offset, GROUP);
                    producer.send(DltRecord.failure(key.topic(), key.partition(), key.offset(), GROUP).to(dlqTopic, partition), (metadata, error) -> {
                        if (error == null) {
                            acknowledged.add(key);
                        }
                    });
                }
                offset++;
                FaultRuns.pause(50);
            }
        }

        /** Each incident's replay is requested until accepted; a request the service cannot take now (outage) is tried again. */
        private void replay() {
            while (running && !toReplay.isEmpty()) {
                String incident = toReplay.poll();
                try {
                    HttpResponse<String> response = service.post("/api/v1/incidents/" + incident + "/replay", "operator", "{\"reason\":\"under load\"}");
                    // accepted, or accepted before though the answer was lost in an outage
                    if (response.statusCode() == 202 || response.body().contains("REPLAY_ALREADY_REQUESTED")) {
                        requested.add(incident);
                    } else {
                        toReplay.addLast(incident);
                    }
                } catch (Exception e) {
                    toReplay.addLast(incident);
                }
                FaultRuns.pause(500);
            }
        }

        private void sample() {
            while (running) {
                samples.add(new Sample(System.nanoTime(), service.ready()));
                FaultRuns.pause(250);
            }
        }

        /** The readiness samples taken between two instants. */
        List<Boolean> readiness(long fromNanos, long toNanos) {
            return samples.stream().filter(sample -> sample.nanos() >= fromNanos && sample.nanos() <= toNanos).map(Sample::ready).toList();
        }

        @Override
        public void close() throws InterruptedException {
            running = false;
            for (Thread thread : threads) {
                thread.join(120_000);
            }
            producer.close(Duration.ofMinutes(2));
        }
    }
}

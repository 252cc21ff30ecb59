package io.dlqdesk.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.testsupport.DltRecord;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.axonframework.serialization.json.JacksonSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.jdbc.core.JdbcTemplate;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A rolling deploy of three instances under a DLQ storm, as a Kubernetes Deployment does it (maxSurge 1, maxUnavailable 0):
 * for each instance in turn a new one starts and becomes ready, then the old one gets SIGTERM and drains; then one
 * instance is killed -9 mid-storm and replaced. Meanwhile first failures stream in with re-failures of replayed
 * incidents, and a bulk replay job runs. Every DLQ record ends in exactly one outcome, every replay is requested and
 * published once by the desk, the job completes once, every processor reaches the event store's head, the partitions and
 * segments are held by live instances only within a stated bound after each change (the one-segment processors by one
 * instance, the others standing by), and the rollback check, asked every second throughout, never answers READY while a
 * replay is unconsumed or the job has work left (and does once all is done). Before the roll, commands for one incident
 * sent to every instance at once stay consistent.
 */
@RealInfrastructure
class RollingDeployIT {

    @RegisterExtension
    final FaultRun run = new FaultRun("roll");

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int PARTITIONS = 6;
    private static final int REPLAYS = 60;
    /** At one request a second the job runs through the roll: it is asked for, answered and resumed across every SIGTERM. */
    private static final int JOB_INCIDENTS = 240;
    /** First failures per second in the storm, from the first replacement to a while after the kill. */
    private static final int STORM_RATE = 100;
    private static final String GROUP = "billing";
    private static final String REPLAYED_GROUP = "orders-service";
    private static final String JOB_GROUP = "payments-service";
    /**
     * After a SIGTERM has ended, the partitions and segments are held by live instances only within this: less than
     * Kafka's 45 s session timeout, so only a member that left the group meets it.
     */
    private static final Duration AFTER_SIGTERM = Duration.ofSeconds(20);
    /** After a kill -9: the group notices the member gone after its session timeout (Kafka's 45 s), the claims time out after 10 s. */
    private static final Duration AFTER_KILL = Duration.ofSeconds(90);
    /** SIGTERM to exit: within the shipped dlqdesk.instances.shutdown-timeout (20 s) and the JVM's exit. */
    private static final Duration STOP_BOUND = Duration.ofSeconds(25);
    private static final List<String> SPREAD = List.of("incident-read-models", "rollback-facts", "replay-saga", "incident-events-kafka-publisher");
    private static final List<String> ONE_HOLDER = List.of("replay-jobs", "incident-alerts", "incident-notifications", "replay-job-runner");

    private final List<ServiceProcess> everyProcess = new CopyOnWriteArrayList<>();

    @Test
    void rolledOneByOneAndOneKilledUnderAStormNothingIsLostOrDoubledAndRollbackIsNeverFalselyReady(TestDatabase database, KafkaBroker broker)
            throws Exception {
        String dlqTopic = run.dlqTopic();
        String original = run.topic("orders");
        String replayedSource = run.topic("replayed");
        String jobSource = run.topic("jobsource");
        IngestLedger.createTopic(broker, dlqTopic, PARTITIONS, Map.of());
        IngestLedger.createTopic(broker, replayedSource, 2, Map.of());
        IngestLedger.createTopic(broker, jobSource, 2, Map.of());
        Map<String, String> replayed = FaultRuns.replayableFailures(broker, replayedSource, dlqTopic, REPLAYED_GROUP, REPLAYS);
        Map<String, String> jobbed = FaultRuns.replayableFailures(broker, jobSource, dlqTopic, JOB_GROUP, JOB_INCIDENTS);
        Map<String, Object> settings = FaultRuns.service(database, broker, run, FaultRuns.watchedReplays());
        JdbcTemplate jdbc = FaultRuns.jdbc(database);
        TokenPositions tokens = new TokenPositions(jdbc, JacksonSerializer.defaultSerializer());
        AtomicReference<ServiceProcess> asked = new AtomicReference<>();
        Path answers = Files.createDirectories(Path.of("target", "service-logs")).resolve("roll-rollback-answers-" + run.nonce() + ".log");
        List<String> notes = new ArrayList<>();

        try (Downstream replayConsumer = Downstream.startAtTheEnd(broker, replayedSource, REPLAYED_GROUP);
             Downstream jobConsumer = Downstream.startAtTheEnd(broker, jobSource, JOB_GROUP);
             Storm storm = new Storm(broker, dlqTopic, original)) {
            List<ServiceProcess> live = new ArrayList<>();
            for (String name : List.of("roll-1", "roll-2", "roll-3")) {
                live.add(start(name, settings));
            }
            for (ServiceProcess service : live) {
                service.awaitReady(FaultRun.START);
            }
            asked.set(live.get(0));
            await().atMost(Duration.ofMinutes(2)).until(() -> FaultRuns.count(jdbc, "SELECT COUNT(*) FROM incident_summary WHERE topic IN (?, ?)",
                    replayedSource, jobSource) == REPLAYS + JOB_INCIDENTS);
            notes.add("spread over 3 in " + seconds(awaitHeldByLiveOnly(broker, jdbc, live, Duration.ofMinutes(2))));

            String contended = replayed.keySet().iterator().next();
            concurrentCommandsOnOneIncidentStayConsistent(live, jdbc, contended);
            FaultRuns.replaySwitchOn(live.get(0));
            FaultRuns.requestReplays(live, replayed.keySet().stream().filter(incident -> !incident.equals(contended)).toList());
            HttpResponse<String> created = live.get(1).post("/api/v1/replay-jobs", "operator", "{\"reason\":\"rolling deploy\",\"incidentIds\":"
                    + JSON.writeValueAsString(List.copyOf(jobbed.keySet())) + ",\"rate\":1,\"maxInFlight\":20}");
            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
            String job = JSON.readTree(created.body()).path("jobId").asText();
            Map<String, String> allReplays = new HashMap<>(replayed);
            allReplays.putAll(jobbed);
            // every replay of the run is requested or in the job from here on: in flight only ever ends
            try (RollbackWatch watch = new RollbackWatch(jdbc, asked, Duration.ofSeconds(1),
                    () -> jobHasWorkLeft(jdbc, job) || unconsumed(jdbc, allReplays, replayConsumer, jobConsumer), answers)) {
                watch.start();
                storm.start();
                await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofSeconds(1)).until(() -> FaultRuns.count(jdbc,
                        "SELECT COUNT(*) FROM replay_attempt WHERE target_group = ? AND status = 'PUBLISHED'", REPLAYED_GROUP) == REPLAYS);
                Map<String, ProducerRecord<byte[], byte[]>> refailures = FaultRuns.refailures(jdbc, broker, REPLAYED_GROUP, dlqTopic);
                assertThat(refailures).hasSize(REPLAYS);
                storm.refail(refailures.values());

                for (int i = 0; i < 3; i++) {
                    ServiceProcess old = live.get(0);
                    ServiceProcess replacement = start("roll-" + (4 + i), settings).awaitReady(FaultRun.START);
                    live.add(replacement);
                    asked.set(replacement);
                    int jobRequested = Replays.eventsIn(jdbc, job, "JobReplayRequested");
                    if (i == 0) {
                        assertThat(jobRequested).as("the job has work left at the first SIGTERM").isLessThan(JOB_INCIDENTS);
                    }
                    long stopping = System.nanoTime();
                    old.stop();
                    Duration stopped = Duration.ofNanos(System.nanoTime() - stopping);
                    live.remove(old);
                    assertThat(stopped).as("SIGTERM to exit of " + old.name()).isLessThan(STOP_BOUND);
                    assertDrained(old);
                    Duration held = awaitHeldByLiveOnly(broker, jdbc, live, AFTER_SIGTERM);
                    notes.add(old.name() + " stopped in " + seconds(stopped) + " (the job at " + jobRequested + " of " + JOB_INCIDENTS
                            + "), its work held by the others in " + seconds(held));
                }

                ServiceProcess killed = live.get(0);
                killed.kill();
                live.remove(killed);
                long killedAt = System.nanoTime();
                int jobRequestedAtKill = Replays.eventsIn(jdbc, job, "JobReplayRequested");
                live.add(start("roll-7", settings).awaitReady(FaultRun.START));
                Duration takenOver = awaitHeldByLiveOnly(broker, jdbc, live, AFTER_KILL);
                Duration recovered = Duration.ofNanos(System.nanoTime() - killedAt);
                notes.add(killed.name() + " killed -9 (the job at " + jobRequestedAtKill + "), its work held by the others " + seconds(recovered)
                        + " after the kill (" + seconds(takenOver) + " after its replacement was ready)");
                storm.close();

                JsonNode done = await().atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofSeconds(1)).until(() -> {
                    HttpResponse<String> view = live.get(0).get("/api/v1/replay-jobs/" + job, "viewer");
                    return view.statusCode() == 200 ? JSON.readTree(view.body()) : null;
                }, view -> view != null && "COMPLETED".equals(view.path("status").asText()));
                assertThat(done.path("progress").path("requested").asInt()).isEqualTo(JOB_INCIDENTS);
                await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofSeconds(1))
                        .until(() -> FaultRuns.decided(jdbc) >= REPLAYS + JOB_INCIDENTS);
                Map<TopicPartition, Long> ends = FaultRuns.endOffsets(broker, dlqTopic, PARTITIONS);
                await().atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> {
                    for (Map.Entry<TopicPartition, Long> end : ends.entrySet()) {
                        assertThat(broker.committedOffset(run.ingestGroup(), end.getKey())).as("ingested up to the end of " + end.getKey())
                                .isEqualTo(end.getValue());
                    }
                });
                await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> {
                    long head = tokens.eventStoreHead();
                    assertThat(tokens.read()).as("every processor's segments").isNotEmpty()
                            .allSatisfy(segment -> assertThat(segment.position()).as(segment.processor() + "/" + segment.segment()).isGreaterThanOrEqualTo(head));
                });
                await().atMost(Duration.ofMinutes(2)).until(() -> replayConsumer.applied().keySet().containsAll(replayed.values())
                        && jobConsumer.applied().keySet().containsAll(jobbed.values()));
                // READY once all is consumed and the job is done: a check that always says no is caught here
                await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(1)).until(() -> watch.readyCount() > 0);
                watch.close();

                List<String> firstFailures = FaultRuns.ids(storm.sent());
                List<String> opened = new ArrayList<>(firstFailures);
                opened.addAll(allReplays.keySet());
                FaultRuns.Tally openedTally = FaultRuns.tally(opened, FaultRuns.openedPerIncident(jdbc));
                FaultRuns.Tally correlated = FaultRuns.tally(replayed.keySet(), FaultRuns.correlatedPerIncident(jdbc));
                Map<String, Integer> requests = FaultRuns.perIncident(jdbc, "ReplayRequested");
                Map<String, Integer> published = FaultRuns.publishedPerIncident(jdbc);
                long topicCopies = replayConsumer.deliveries().values().stream().mapToLong(Integer::longValue).sum()
                        + jobConsumer.deliveries().values().stream().mapToLong(Integer::longValue).sum();
                FaultRuns.report("rolling deploy of 3, then one killed -9", firstFailures.size() + REPLAYS + allReplays.size(),
                        openedTally.duplicates() + correlated.duplicates(), openedTally.lost() + correlated.lost(), recovered, String.format(
                                "%,d first failures at %d/s, %d re-failures of replays, %d replays + a job of %d; %s; %d rollback checks, "
                                        + "%d READY, %d of them while a replay was unconsumed or the job had work left; %d copies of %d replays on the topics",
                                firstFailures.size(), STORM_RATE, REPLAYS, REPLAYS, JOB_INCIDENTS, String.join("; ", notes), watch.checks(),
                                watch.readyCount(), watch.readyWhileInFlight().size(), topicCopies, allReplays.size()));

                assertThat(watch.readyWhileInFlight()).as("READY while a replay was unconsumed or the job had work left; every answer: " + answers)
                        .isEmpty();
                assertThat(watch.checks()).as("the watch asked").isPositive();
                assertThat(openedTally.duplicates()).as("incidents opened twice (a re-failure opening its own counts)").isZero();
                assertThat(openedTally.lost()).as("failures without an incident").isZero();
                assertThat(correlated.duplicates()).as("re-failures correlated twice").isZero();
                assertThat(correlated.lost()).as("re-failures not correlated").isZero();
                assertThat(FaultRuns.count(jdbc, "SELECT COUNT(*) FROM dlq_quarantine")).as("records quarantined").isZero();
                for (String incident : allReplays.keySet()) {
                    assertThat(requests.get(incident)).as("replay requests of " + incident).isEqualTo(1);
                    assertThat(published.get(incident)).as("PUBLISHED results of " + incident).isEqualTo(1);
                }
                assertThat(Replays.eventsIn(jdbc, job, "ReplayJobCompleted")).as("the job completed once").isEqualTo(1);
                assertThat(Replays.eventsIn(jdbc, job, "JobReplayRequested")).as("the job's requests").isEqualTo(JOB_INCIDENTS);
                assertThat(FaultRuns.count(jdbc, "SELECT COUNT(*) FROM replay_outbox WHERE status = 'PENDING'")).as("replays left pending").isZero();
            }
        } finally {
            for (ServiceProcess service : everyProcess) {
                service.close();
            }
        }
    }

    /**
     * Ten acknowledgements and ten replay requests for one incident, spread over the instances, all at once: one of each
     * takes effect, the others are refused for the state they found (a lost race on the event store is tried again, so
     * none ends as a conflict), nothing fails, and the incident's event sequence has no gap.
     */
    private static void concurrentCommandsOnOneIncidentStayConsistent(List<ServiceProcess> services, JdbcTemplate jdbc, String incident)
            throws Exception {
        List<HttpResponse<String>> acknowledgements = all(services, "/api/v1/incidents/" + incident + "/acknowledge");
        assertThat(acknowledgements).extracting(HttpResponse::statusCode).as(bodies(acknowledgements)).allMatch(status -> status < 500)
                .filteredOn(status -> status == 204).isNotEmpty();
        assertThat(Replays.eventsIn(jdbc, incident, "IncidentAcknowledged")).isEqualTo(1);

        FaultRuns.replaySwitchOn(services.get(0));
        List<HttpResponse<String>> replays = all(services, "/api/v1/incidents/" + incident + "/replay");
        FaultRuns.replaySwitchOff(services.get(0));
        assertThat(replays).extracting(HttpResponse::statusCode).as(bodies(replays)).filteredOn(status -> status == 202).hasSize(1);
        // refused for the state found: the attempt still in flight, or already published (the poller sends a row as
        // soon as the request commits, so later requests of the ten may find it done)
        assertThat(replays).filteredOn(response -> response.statusCode() != 202).as(bodies(replays))
                .allSatisfy(response -> assertThat(response.body()).containsAnyOf("REPLAY_ALREADY_REQUESTED", "ALREADY_PUBLISHED"));
        assertThat(Replays.eventsIn(jdbc, incident, "ReplayRequested")).isEqualTo(1);
        assertThat(FaultRuns.count(jdbc, "SELECT MAX(sequence_number) + 1 - COUNT(*) FROM domain_event_entry WHERE aggregate_identifier = ?",
                incident)).as("gaps in the event sequence of " + incident).isZero();
    }

    private static List<HttpResponse<String>> all(List<ServiceProcess> services, String path) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(10);
        try {
            List<Callable<HttpResponse<String>>> requests = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                ServiceProcess service = services.get(i % services.size());
                requests.add(() -> FaultRuns.postUntilAnswered(service, path, "{\"reason\":\"from every instance at once\"}"));
            }
            List<HttpResponse<String>> responses = new ArrayList<>();
            for (Future<HttpResponse<String>> response : pool.invokeAll(requests, 2, TimeUnit.MINUTES)) {
                responses.add(response.get());
            }
            return responses;
        } finally {
            pool.shutdownNow();
        }
    }

    private static String bodies(List<HttpResponse<String>> responses) {
        return responses.stream().map(response -> response.statusCode() + " " + response.body()).collect(Collectors.joining("\n"));
    }

    private ServiceProcess start(String name, Map<String, Object> settings) throws Exception {
        ServiceProcess service = ServiceProcess.start(name, settings);
        everyProcess.add(service);
        return service;
    }

    /** Its log says ingest drained (nothing abandoned) and the shutdown ended before its bound. */
    private static void assertDrained(ServiceProcess stopped) {
        List<String> lines = stopped.logLines();
        assertThat(lines).as("log of " + stopped.name()).anyMatch(line -> line.contains("DLQ ingest drained"))
                .noneMatch(line -> line.contains("drain timed out") || line.contains("halting"));
    }

    /**
     * Waits until the ingest group's members are exactly the live instances, each with DLQ partitions, and every processor
     * segment is claimed by a live instance (the two-segment processors by different ones); returns how long that took.
     */
    private Duration awaitHeldByLiveOnly(KafkaBroker broker, JdbcTemplate jdbc, List<ServiceProcess> live, Duration bound) {
        long from = System.nanoTime();
        Set<String> owners = live.stream().map(FaultRuns::owner).collect(Collectors.toSet());
        await().atMost(bound).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            Map<String, Set<TopicPartition>> members = FaultRuns.partitionsByMember(broker, run.ingestGroup());
            assertThat(members).as("DLQ partitions per instance").hasSize(live.size())
                    .allSatisfy((member, partitions) -> assertThat(partitions).isNotEmpty());
            assertThat(members.values().stream().mapToInt(Set::size).sum()).as("DLQ partitions assigned").isEqualTo(PARTITIONS);
            Map<String, Set<String>> held = FaultRuns.owners(jdbc);
            for (String processor : SPREAD) {
                assertThat(held.get(processor)).as("owners of " + processor + "'s segments").hasSize(2).isSubsetOf(owners);
            }
            for (String processor : ONE_HOLDER) {
                assertThat(held.get(processor)).as("owner of " + processor + "'s segment").hasSize(1).isSubsetOf(owners);
            }
        });
        return Duration.ofNanos(System.nanoTime() - from);
    }

    private static boolean jobHasWorkLeft(JdbcTemplate jdbc, String job) {
        return Replays.eventsIn(jdbc, job, "ReplayJobCompleted") + Replays.eventsIn(jdbc, job, "ReplayJobCancelled") == 0;
    }

    /** A replay recorded PUBLISHED whose eventId its consumer has not applied yet (it commits after applying). */
    private static boolean unconsumed(JdbcTemplate jdbc, Map<String, String> replays, Downstream... consumers) {
        Set<String> applied = new HashSet<>();
        for (Downstream consumer : consumers) {
            applied.addAll(consumer.applied().keySet());
        }
        return !applied.containsAll(FaultRuns.publishedEventIds(jdbc, replays).values());
    }

    private static String seconds(Duration duration) {
        return String.format("%.1f s", duration.toMillis() / 1000.0);
    }

    /** First failures at {@link #STORM_RATE} per second, each to its original partition's DLQ partition, and the re-failures handed to it spread among them. */
    private static final class Storm implements AutoCloseable {

        private final KafkaProducer<byte[], byte[]> producer;
        private final String dlqTopic;
        private final String original;
        private final List<FailureKey> sent = new CopyOnWriteArrayList<>();
        private final ConcurrentLinkedQueue<ProducerRecord<byte[], byte[]>> refailures = new ConcurrentLinkedQueue<>();
        private final List<Future<RecordMetadata>> acks = new CopyOnWriteArrayList<>();
        private volatile boolean running;
        private Thread thread;

        Storm(KafkaBroker broker, String dlqTopic, String original) {
            this.producer = IngestLedger.producer(broker, Map.of());
            this.dlqTopic = dlqTopic;
            this.original = original;
        }

        void start() {
            running = true;
            thread = FaultRuns.daemon("dlq-storm", this::send);
        }

        void refail(Collection<ProducerRecord<byte[], byte[]>> records) {
            refailures.addAll(records);
        }

        private void send() {
            long next = System.nanoTime();
            int i = 0;
            while (running) {
                for (int n = 0; n < STORM_RATE / 10; n++, i++) {
                    FailureKey key = new FailureKey(original, i % PARTITIONS, i / PARTITIONS, GROUP);
                    acks.add(producer.send(DltRecord.failure(key.topic(), key.partition(), key.offset(), key.consumerGroup()).to(dlqTopic, key.partition())));
                    sent.add(key);
                }
                ProducerRecord<byte[], byte[]> refailure = refailures.poll();
                if (refailure != null) {
                    acks.add(producer.send(refailure));
                }
                next += TimeUnit.MILLISECONDS.toNanos(100);
                FaultRuns.pause(Math.max(0, TimeUnit.NANOSECONDS.toMillis(next - System.nanoTime())));
            }
        }

        List<FailureKey> sent() {
            return sent;
        }

        /** Stops the storm once every re-failure has been sent, and waits for every record's acknowledgement. */
        @Override
        public void close() throws Exception {
            if (thread != null && running) {
                await().atMost(Duration.ofMinutes(1)).until(refailures::isEmpty);
                running = false;
                thread.join(10_000);
                producer.flush();
                for (Future<RecordMetadata> ack : acks) {
                    ack.get(30, TimeUnit.SECONDS);
                }
            }
            running = false;
            producer.close(Duration.ofSeconds(10));
        }
    }
}

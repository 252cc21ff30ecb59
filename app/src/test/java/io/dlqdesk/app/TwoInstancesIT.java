package io.dlqdesk.app;

import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.testsupport.DltRecord;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.jdbc.core.JdbcTemplate;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two instances on one database and broker: the DLQ partitions and every event processor's segments
 * are spread across both; commands for one incident from both at once stay consistent; one is
 * killed -9 and the other takes over its partitions and segments, with no incident doubled or lost
 * and no replay lost.
 */
@RealInfrastructure
class TwoInstancesIT {

    @RegisterExtension
    final FaultRun run = new FaultRun("two");

    private static final int PARTITIONS = 4;
    private static final int RECORDS = 4_000;
    private static final int REPLAYS = 100;
    private static final String GROUP = "billing";
    private static final String REPLAYED_GROUP = "orders-service";
    /** The processors created with two segments, which must spread over the two instances. */
    private static final List<String> SPREAD = List.of("incident-read-models", "rollback-facts", "replay-saga", "incident-events-kafka-publisher");
    /** The processors created with one segment: held by one instance, the other a standby (the job runner's on purpose). */
    private static final List<String> ONE_HOLDER = List.of("replay-jobs", "incident-alerts", "incident-notifications", "replay-job-runner");

    @Test
    void partitionsAndSegmentsSpreadAndTheSurvivorTakesOverWithNothingDoubledOrLost(TestDatabase database, KafkaBroker broker) throws Exception {
        String dlqTopic = run.dlqTopic();
        String original = run.topic("orders");
        String source = run.topic("replayed");
        IngestLedger.createTopic(broker, dlqTopic, PARTITIONS, Map.of());
        IngestLedger.createTopic(broker, source, 2, Map.of());
        Map<String, Object> settings = FaultRuns.service(database, broker, run, Map.of("dlqdesk.replay.poll-interval", "100ms",
                "dlqdesk.replay.reconciliation-delay", "10s"));
        String ingestGroup = run.ingestGroup();
        JdbcTemplate jdbc = FaultRuns.jdbc(database);
        List<FailureKey> keys = new ArrayList<>();
        for (int i = 0; i < RECORDS; i++) {
            keys.add(new FailureKey(original, i % PARTITIONS, i / PARTITIONS, GROUP));
        }
        Map<String, String> replayable = FaultRuns.replayableFailures(broker, source, dlqTopic, REPLAYED_GROUP, REPLAYS);

        try (ServiceProcess a = ServiceProcess.start("two-a", settings); ServiceProcess b = ServiceProcess.start("two-b", settings);
             Downstream downstream = Downstream.startAtTheEnd(broker, source, REPLAYED_GROUP)) {
            a.awaitReady(FaultRun.START);
            b.awaitReady(FaultRun.START);

            long spreadFrom = System.nanoTime();
            await().atMost(Duration.ofMinutes(2)).untilAsserted(() -> {
                assertThat(partitionsByMember(broker, ingestGroup).values()).as("DLQ partitions per instance").hasSize(2)
                        .allSatisfy(partitions -> assertThat(partitions).isNotEmpty());
                Map<String, Set<String>> owners = owners(jdbc);
                for (String processor : SPREAD) {
                    assertThat(owners.get(processor)).as("owners of " + processor + "'s segments").containsExactlyInAnyOrder(owner(a), owner(b));
                }
                for (String processor : ONE_HOLDER) {
                    assertThat(owners.get(processor)).as("owner of " + processor + "'s segment").hasSize(1).isSubsetOf(owner(a), owner(b));
                }
            });
            Duration spreadIn = Duration.ofNanos(System.nanoTime() - spreadFrom);

            await().atMost(Duration.ofMinutes(2)).until(() -> FaultRuns.count(jdbc, "SELECT COUNT(*) FROM incident_summary WHERE topic = ?", source) == REPLAYS);
            concurrentCommandsOnOneIncidentStayConsistent(a, b, jdbc, replayable.keySet().iterator().next());

            FaultRuns.replaySwitchOn(a);
            send(broker, dlqTopic, keys.subList(0, RECORDS / 2));
            FaultRuns.requestReplays(List.of(a, b), replayable.keySet().stream().skip(1).toList());
            await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(500))
                    .until(() -> FaultRuns.openedPerIncident(jdbc).size() >= RECORDS / 4);
            send(broker, dlqTopic, keys.subList(RECORDS / 2, RECORDS));

            a.kill();
            long killedAt = System.nanoTime();
            await().atMost(Duration.ofMinutes(3)).untilAsserted(() -> {
                assertThat(partitionsByMember(broker, ingestGroup)).as("DLQ partitions per instance").hasSize(1)
                        .allSatisfy((member, partitions) -> assertThat(partitions).hasSize(PARTITIONS));
                Map<String, Set<String>> owners = owners(jdbc);
                for (String processor : SPREAD) {
                    assertThat(owners.get(processor)).as("owners of " + processor + "'s segments").containsExactly(owner(b));
                }
                for (String processor : ONE_HOLDER) {
                    assertThat(owners.get(processor)).as("owner of " + processor + "'s segment").containsExactly(owner(b));
                }
            });
            Duration takenOverIn = Duration.ofNanos(System.nanoTime() - killedAt);

            await().atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofSeconds(1))
                    .until(() -> FaultRuns.openedPerIncident(jdbc).size() >= RECORDS + REPLAYS);
            await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofSeconds(1)).until(() -> FaultRuns.decided(jdbc) >= REPLAYS);
            Duration recovered = Duration.ofNanos(System.nanoTime() - killedAt);
            Map<String, String> published = FaultRuns.publishedEventIds(jdbc, replayable);
            await().atMost(Duration.ofMinutes(2)).until(() -> downstream.applied().keySet().containsAll(published.values()));

            List<String> expected = new ArrayList<>(FaultRuns.ids(keys));
            expected.addAll(replayable.keySet());
            FaultRuns.Tally tally = FaultRuns.tally(expected, FaultRuns.openedPerIncident(jdbc));
            long lostReplays = REPLAYS - published.size();
            FaultRuns.report("two instances, one killed -9", RECORDS + REPLAYS, tally.duplicates(), tally.lost() + lostReplays, recovered,
                    String.format("spread in %.1f s; partitions and segments taken over in %.1f s; %d of %d replays PUBLISHED",
                            spreadIn.toMillis() / 1000.0, takenOverIn.toMillis() / 1000.0, published.size(), REPLAYS));
            assertThat(tally.duplicates()).as("duplicate incidents").isZero();
            assertThat(tally.lost()).as("failures without an incident").isZero();
            assertThat(FaultRuns.count(jdbc, "SELECT COUNT(*) FROM replay_outbox WHERE status = 'PENDING'")).as("replays left pending").isZero();
            assertThat(published).as("replays published").hasSize(REPLAYS);
        }
    }

    /**
     * Ten acknowledgements and ten replay requests for one incident, half to each instance, all at once:
     * one of each takes effect, the others are refused for the state they found (a lost race on the event
     * store is tried again, so none ends as a conflict), and nothing fails.
     */
    private static void concurrentCommandsOnOneIncidentStayConsistent(ServiceProcess a, ServiceProcess b, JdbcTemplate jdbc, String incident)
            throws Exception {
        List<HttpResponse<String>> acknowledgements = all(a, b, "/api/v1/incidents/" + incident + "/acknowledge");
        assertThat(acknowledgements).extracting(HttpResponse::statusCode).as(bodies(acknowledgements)).allMatch(status -> status < 500)
                .filteredOn(status -> status == 204).isNotEmpty();
        assertThat(Replays.eventsIn(jdbc, incident, "IncidentAcknowledged")).isEqualTo(1);

        FaultRuns.replaySwitchOn(a);
        List<HttpResponse<String>> replays = all(a, b, "/api/v1/incidents/" + incident + "/replay");
        FaultRuns.replaySwitchOff(a);
        assertThat(replays).extracting(HttpResponse::statusCode).as(bodies(replays)).filteredOn(status -> status == 202).hasSize(1);
        // refused for the state found: the attempt still in flight, or already published (the poller sends a row as
        // soon as the request commits, so later requests of the ten may find it done)
        assertThat(replays).filteredOn(response -> response.statusCode() != 202).as(bodies(replays))
                .allSatisfy(response -> assertThat(response.body()).containsAnyOf("REPLAY_ALREADY_REQUESTED", "ALREADY_PUBLISHED"));
        assertThat(Replays.eventsIn(jdbc, incident, "ReplayRequested")).isEqualTo(1);
        assertThat(sequenceGaps(jdbc, incident)).as("event sequence of " + incident).isZero();
    }

    private static List<HttpResponse<String>> all(ServiceProcess a, ServiceProcess b, String path) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(10);
        try {
            List<Callable<HttpResponse<String>>> requests = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                ServiceProcess service = i % 2 == 0 ? a : b;
                requests.add(() -> FaultRuns.postUntilAnswered(service, path, "{\"reason\":\"from both at once\"}"));
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

    private static int sequenceGaps(JdbcTemplate jdbc, String incident) {
        return FaultRuns.count(jdbc, "SELECT MAX(sequence_number) + 1 - COUNT(*) FROM domain_event_entry WHERE aggregate_identifier = ?", incident);
    }

    /** Axon's token owner name for a process: its runtime name, pid@host. */
    private static String owner(ServiceProcess service) {
        return service.pid() + "@";
    }

    /** processor -> the owners of its segments, as pid@ prefixes ("unclaimed" for a segment nobody holds). */
    private static Map<String, Set<String>> owners(JdbcTemplate jdbc) {
        Map<String, Set<String>> owners = new HashMap<>();
        jdbc.query("SELECT processor_name, owner FROM token_entry", row -> {
            String owner = row.getString(2);
            owners.computeIfAbsent(row.getString(1), name -> new HashSet<>()).add(owner == null ? "unclaimed" : owner.substring(0, owner.indexOf('@') + 1));
        });
        return owners;
    }

    private static Map<String, Set<TopicPartition>> partitionsByMember(KafkaBroker broker, String group) throws Exception {
        try (Admin admin = broker.admin()) {
            ConsumerGroupDescription description = admin.describeConsumerGroups(List.of(group)).all().get(10, TimeUnit.SECONDS).get(group);
            Map<String, Set<TopicPartition>> byMember = new HashMap<>();
            for (MemberDescription member : description.members()) {
                byMember.put(member.consumerId(), member.assignment().topicPartitions());
            }
            return byMember;
        }
    }

    private static void send(KafkaBroker broker, String dlqTopic, List<FailureKey> keys) throws Exception {
        List<Future<RecordMetadata>> sent = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer = IngestLedger.producer(broker, Map.of())) {
            for (FailureKey key : keys) {
                sent.add(producer.send(DltRecord.failure(key.topic(), key.partition(), key.offset(), key.consumerGroup()).to(dlqTopic, key.partition())));
            }
            producer.flush();
        }
        for (Future<RecordMetadata> future : sent) {
            future.get(30, TimeUnit.SECONDS);
        }
    }
}

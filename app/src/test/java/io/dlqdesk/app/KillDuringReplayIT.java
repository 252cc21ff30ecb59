package io.dlqdesk.app;

import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.jdbc.core.JdbcTemplate;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * 500 replays requested, the service killed -9 while a replay the broker acknowledged is not yet
 * marked in the database, then a new process: every attempt ends PUBLISHED or PUBLISH_FAILED (or stays
 * REQUESTED with the reconciliation flagging it), a downstream consumer that deduplicates by eventId
 * applies each replayed record once, and rollback readiness never said READY while a replay was in flight.
 */
@RealInfrastructure
class KillDuringReplayIT {

    @RegisterExtension
    final FaultRun run = new FaultRun("rkill");

    private static final int REPLAYS = 500;
    private static final String GROUP = "orders-service";

    @Test
    void killedBetweenTheBrokersAckAndTheDatabaseUpdateEveryReplayEndsDecidedAndIsAppliedOnce(TestDatabase database, KafkaBroker broker)
            throws Exception {
        String source = run.topic("orders");
        String dlqTopic = run.dlqTopic();
        IngestLedger.createTopic(broker, source, 2, Map.of());
        IngestLedger.createTopic(broker, dlqTopic, 2, Map.of());
        Map<String, String> eventIds = FaultRuns.replayableFailures(broker, source, dlqTopic, GROUP, REPLAYS);
        Map<String, Object> settings = FaultRuns.service(database, broker, run, FaultRuns.watchedReplays());
        JdbcTemplate jdbc = FaultRuns.jdbc(database);
        AtomicReference<ServiceProcess> live = new AtomicReference<>();
        Downstream downstream = Downstream.startAtTheEnd(broker, source, GROUP);
        RollbackWatch watch = new RollbackWatch(jdbc, live);

        long killedAt;
        try (downstream; watch; ServiceProcess first = ServiceProcess.start("replay-kill-first", settings)) {
            live.set(first.awaitReady(FaultRun.START));
            await().atMost(Duration.ofMinutes(2)).until(() -> FaultRuns.count(jdbc, "SELECT COUNT(*) FROM incident_summary WHERE topic = ?", source) == REPLAYS);
            FaultRuns.replaySwitchOn(first);
            slowAcknowledgedUpdatesAfter(jdbc, REPLAYS / 5);
            FaultRuns.requestReplays(first, eventIds.keySet());
            watch.start(); // every replay is requested from here on: READY would be a lie until they are all applied

            // the broker has acknowledged a replay and the row's update waits in the trigger: kill now
            await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(50)).until(() -> FaultRuns.count(jdbc,
                    "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE STATE = 'User sleep' AND (INFO LIKE '%it_slept%' OR INFO LIKE '%replay_outbox%')") > 0);
            first.kill();
            killedAt = System.nanoTime();
            jdbc.update("DELETE FROM it_slow_ack");
            int sentAtKill = FaultRuns.count(jdbc, "SELECT COUNT(*) FROM replay_outbox WHERE status = 'SENT'");
            assertThat(sentAtKill).as("killed mid-replay").isLessThan(REPLAYS);

            try (ServiceProcess second = ServiceProcess.start("replay-kill-second", settings)) {
                live.set(second.awaitReady(FaultRun.START));
                // held for longer than the retry bound with replays pending and nothing being decided: only the
                // pending rows and the REQUESTED attempts stand between the check and READY now
                FaultRuns.replaySwitchOff(second);
                Thread.sleep(10_000);
                FaultRuns.replaySwitchOn(second);
                await().atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofSeconds(1)).until(() -> FaultRuns.decided(jdbc) + flagged(second, eventIds) >= REPLAYS);
                Duration recovered = Duration.ofNanos(System.nanoTime() - killedAt);
                assertThat(FaultRuns.count(jdbc, "SELECT COUNT(*) FROM replay_outbox WHERE status = 'PENDING'")).isZero();
                Map<String, String> published = FaultRuns.publishedEventIds(jdbc, eventIds);
                await().atMost(Duration.ofMinutes(2)).until(() -> downstream.applied().keySet().containsAll(published.values()));

                // READY only once all is applied: the check that always says no is caught here
                await().atMost(Duration.ofMinutes(2)).until(() -> second.get("/api/v1/rollback-readiness", "viewer").statusCode() == 200);
                watch.close();

                long deliveries = downstream.deliveries().values().stream().mapToLong(Integer::longValue).sum();
                long appliedTwice = downstream.applied().values().stream().filter(times -> times > 1).count();
                long lost = published.values().stream().filter(eventId -> !downstream.applied().containsKey(eventId)).count();
                FaultRuns.report("kill -9 mid-replay", REPLAYS, appliedTwice, lost, recovered, String.format(
                        "killed at %d SENT; recovered = kill until all decided, restart and a 10 s hold with the switch off included; "
                                + "%d PUBLISHED, %d PUBLISH_FAILED, %d flagged REQUESTED; %d deliveries of %d eventIds "
                                + "(at least once, deduplicated); %d rollback checks, %d READY, %d of them while a replay was in flight",
                        sentAtKill, published.size(), FaultRuns.decided(jdbc) - published.size(), flagged(second, eventIds), deliveries,
                        downstream.deliveries().size(), watch.checks(), watch.readyCount(), watch.readyWhileInFlight().size()));
                assertThat(appliedTwice).as("eventIds applied twice").isZero();
                assertThat(lost).as("published replays never applied").isZero();
                assertThat(deliveries).as("the replay acknowledged before the kill and not marked was published again")
                        .isGreaterThan(downstream.deliveries().size());
                assertThat(downstream.deliveries().keySet()).as("nothing but our replays").isSubsetOf(eventIds.values());
                assertThat(watch.readyWhileInFlight()).as("READY while a replay was in flight").isEmpty();
                assertThat(watch.checks()).as("the watch asked").isPositive();
                for (String incident : eventIds.keySet()) {
                    assertThat(Replays.eventsIn(jdbc, incident, "ReplayRequested")).as(incident).isEqualTo(1);
                    assertThat(Replays.eventsIn(jdbc, incident, "PublishResultRecorded")).as(incident).isLessThanOrEqualTo(1);
                }
            }
        }
    }

    /**
     * Once {@code sent} rows are SENT, and while a row of it_slow_ack exists, marking a row SENT (after the
     * broker's ack) waits 5 s inside its transaction.
     */
    private static void slowAcknowledgedUpdatesAfter(JdbcTemplate jdbc, int sent) {
        jdbc.execute("CREATE TABLE it_slow_ack (after_sent INT NOT NULL)");
        jdbc.execute("CREATE TRIGGER it_slow_ack BEFORE UPDATE ON replay_outbox FOR EACH ROW BEGIN "
                + "IF NEW.status = 'SENT' AND OLD.status = 'PENDING' AND EXISTS (SELECT 1 FROM it_slow_ack) "
                + "AND (SELECT COUNT(*) FROM replay_outbox WHERE status = 'SENT') >= (SELECT MIN(after_sent) FROM it_slow_ack) "
                + "THEN SET @it_slept = SLEEP(5); END IF; END");
        jdbc.update("INSERT INTO it_slow_ack VALUES (?)", sent);
    }

    /** Attempts still REQUESTED that the reconciliation has flagged in the service's log. */
    private static int flagged(ServiceProcess service, Map<String, String> eventIds) {
        List<String> flags = service.logLines().stream().filter(line -> line.contains("it stays REQUESTED")).toList();
        return (int) eventIds.keySet().stream().filter(incident -> flags.stream().anyMatch(line -> line.contains(incident))).count();
    }

}

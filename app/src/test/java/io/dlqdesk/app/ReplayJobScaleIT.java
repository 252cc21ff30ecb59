package io.dlqdesk.app;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.OperatorAction;
import io.dlqdesk.domain.job.ClaimJobReplayCommand;
import io.dlqdesk.domain.job.CreateReplayJobCommand;
import io.dlqdesk.domain.job.JobRecording;
import io.dlqdesk.domain.job.RecordJobPublishResultCommand;
import io.dlqdesk.domain.job.RecordJobReplayCommand;
import io.dlqdesk.domain.job.ReplayJob;
import io.dlqdesk.domain.job.ReplayJobCommandRefusedException;
import io.dlqdesk.domain.job.ReplayJobErrorCode;
import io.dlqdesk.domain.job.ReplayJobId;
import io.dlqdesk.domain.job.ReplayJobLimits;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.domain.replay.PublishStatus;
import io.dlqdesk.domain.replay.ReplayOutcome;
import io.dlqdesk.testsupport.KafkaBroker;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.messaging.ResultMessage;
import org.axonframework.messaging.unitofwork.DefaultUnitOfWork;
import org.axonframework.messaging.unitofwork.RollbackConfigurationType;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A replay job of 10,000 incidents on the real database, driven round by round as the runner drives it (each round claims and
 * answers 25 incidents in one unit of work, as a 500/s job does on 50 ms ticks; every fifth round records the publish results
 * that came in), measuring what its snapshots cost: bytes written (a trigger on the snapshot table adds them up) and each
 * round's time. The runner itself never ticks here (tick: 1 h), so only these rounds touch the job.
 */
@RealInfrastructure
class ReplayJobScaleIT {

    private static final int INCIDENTS = 10_000;
    private static final int PER_ROUND = 25;
    private static final int REPORT_EVERY = 5;

    @Test
    void aJobOfTenThousandIncidentsWritesSnapshotsInProportionToItsSizeNotItsSquare(TestDatabase database, KafkaBroker broker) {
        String nonce = "scale" + System.nanoTime();
        try (ConfigurableApplicationContext app = RunningApp.start(database, broker, Map.of(
                "dlqdesk.ingest.enabled", "false",
                "dlqdesk.events-topic", "it-" + nonce + "-incident-events",
                "dlqdesk.replay.jobs.tick", "1h"))) {
            JdbcTemplate jdbc = app.getBean(JdbcTemplate.class);
            CommandGateway commands = app.getBean(CommandGateway.class);
            TransactionManager transactions = app.getBean(TransactionManager.class);
            jdbc.execute("CREATE TABLE it_snapshot_log (aggregate_identifier VARCHAR(255) NOT NULL, bytes BIGINT NOT NULL)");
            jdbc.execute("CREATE TRIGGER it_snapshot_log AFTER INSERT ON snapshot_event_entry FOR EACH ROW "
                    + "INSERT INTO it_snapshot_log VALUES (NEW.aggregate_identifier, LENGTH(NEW.payload))");
            // other aggregates' snapshots, as after many jobs: a lookup must not read them
            jdbc.batchUpdate("INSERT INTO snapshot_event_entry (aggregate_identifier, sequence_number, type, event_identifier, time_stamp,"
                    + " payload_type, payload) VALUES (?, ?, 'Other', ?, '2026-12-01T00:00:00Z', 'Other', 'x')", IntStream.range(0, 2_000)
                    .mapToObj(i -> new Object[]{"other-" + nonce + "-" + i, i % 50, "other-" + nonce + "-" + i}).toList());
            jdbc.execute("ANALYZE TABLE snapshot_event_entry");

            ReplayJobId job = new ReplayJobId("job-" + nonce);
            List<IncidentId> manifest = IntStream.range(0, INCIDENTS)
                    .mapToObj(i -> IncidentId.of(new FailureKey("orders-" + nonce, i % 4, i, "billing"))).toList();
            OperatorAction alice = new OperatorAction("alice", "fix deployed", Instant.now());
            long createdIn = timed(() -> commands.sendAndWait(new CreateReplayJobCommand(job, "explicit list", manifest,
                    new ReplayJobLimits(ReplayJobLimits.MAX_RATE, ReplayJobLimits.MAX_IN_FLIGHT, null, null), alice)));

            List<Long> askRounds = new ArrayList<>();
            List<Long> reportRounds = new ArrayList<>();
            List<IncidentId> unreported = new ArrayList<>();
            long started = System.nanoTime();
            for (int from = 0, round = 0; from < INCIDENTS; from += PER_ROUND, round++) {
                List<IncidentId> batch = manifest.subList(from, Math.min(INCIDENTS, from + PER_ROUND));
                askRounds.add(timed(() -> inOneUnit(transactions, () -> batch.forEach(incident -> {
                    commands.sendAndWait(new ClaimJobReplayCommand(job, incident, Instant.now()));
                    commands.sendAndWait(new RecordJobReplayCommand(job, incident, ReplayOutcome.requested(1)));
                }))));
                if (round % REPORT_EVERY == REPORT_EVERY - 1 || from + PER_ROUND >= INCIDENTS) {
                    List<IncidentId> decided = List.copyOf(unreported);
                    unreported.clear();
                    if (!decided.isEmpty()) {
                        reportRounds.add(timed(() -> inOneUnit(transactions, () -> decided.forEach(incident -> commands.sendAndWait(
                                new RecordJobPublishResultCommand(job, incident, 1, PublishStatus.PUBLISHED, Instant.now()))))));
                    }
                }
                unreported.addAll(batch); // published by the next report
            }
            List<IncidentId> last = List.copyOf(unreported);
            reportRounds.add(timed(() -> inOneUnit(transactions, () -> last.forEach(incident -> commands.sendAndWait(
                    new RecordJobPublishResultCommand(job, incident, 1, PublishStatus.PUBLISHED, Instant.now()))))));
            long wallMillis = (System.nanoTime() - started) / 1_000_000;

            long snapshots = FaultRuns.count(jdbc, "SELECT COUNT(*) FROM it_snapshot_log WHERE aggregate_identifier = ?", job.value());
            Long bytes = jdbc.queryForObject("SELECT COALESCE(SUM(bytes), 0) FROM it_snapshot_log WHERE aggregate_identifier = ?", Long.class,
                    job.value());
            Long lastSnapshot = jdbc.queryForObject("SELECT MAX(LENGTH(payload)) FROM snapshot_event_entry WHERE aggregate_identifier = ?",
                    Long.class, job.value());
            long events = FaultRuns.count(jdbc, "SELECT COUNT(*) FROM domain_event_entry WHERE aggregate_identifier = ?", job.value());
            String summary = String.format("job of %,d incidents, %,d events: created in %d ms; %d rounds of %d in %,d ms (per round p50 %d,"
                            + " p95 %d, max %d ms; report rounds p50 %d, max %d ms); %,d snapshots, %,d bytes written, last one %,d bytes",
                    INCIDENTS, events, createdIn / 1_000_000, askRounds.size(), PER_ROUND, wallMillis, millis(askRounds, 50),
                    millis(askRounds, 95), millis(askRounds, 100), millis(reportRounds, 50), millis(reportRounds, 100), snapshots, bytes,
                    lastSnapshot);
            System.out.println("ReplayJobScaleIT: " + summary);

            assertThat(snapshots).as(summary).isPositive();
            assertThat(bytes).as("bytes written in snapshots, in proportion to the job's size: " + summary).isLessThan(25_000_000L);
            assertThat(lastSnapshot).as("a snapshot holds a few bytes per incident").isLessThan(40L * INCIDENTS);

            // loaded from its snapshot, the job still knows every incident's story
            assertThatThrownBy(() -> commands.sendAndWait(new ClaimJobReplayCommand(job, manifest.get(INCIDENTS - 1), Instant.now(), true)))
                    .isInstanceOfSatisfying(ReplayJobCommandRefusedException.class, refused -> assertThat(refused.code())
                            .isEqualTo(ReplayJobErrorCode.NOT_RUNNING));
            assertThat((Object) commands.sendAndWait(new RecordJobPublishResultCommand(job, manifest.get(0), 1, PublishStatus.PUBLISHED,
                    Instant.now()))).isEqualTo(JobRecording.ALREADY_RECORDED);

            // a snapshot of another form (its revision) is never read: it would read leniently into a job without incidents
            long lastSequence = jdbc.queryForObject("SELECT MAX(sequence_number) FROM domain_event_entry WHERE aggregate_identifier = ?",
                    Long.class, job.value());
            String oldForm = "{\"jobId\":{\"value\":\"" + job.value() + "\"},\"limits\":{\"ratePerSecond\":500,\"maxInFlight\":1000,"
                    + "\"canary\":null,\"maxRefailureRate\":null},\"status\":\"COMPLETED\",\"manifest\":[{\"value\":\"" + manifest.get(1).value()
                    + "\"}],\"claimed\":[],\"decided\":[],\"attempts\":{},\"resultRecorded\":[],\"refailed\":[],\"published\":0,"
                    + "\"canaryPassed\":false}";
            jdbc.update("INSERT INTO snapshot_event_entry (aggregate_identifier, sequence_number, type, event_identifier, time_stamp,"
                    + " payload_type, payload_revision, payload, meta_data) VALUES (?, ?, 'ReplayJob', ?, '2026-12-01T00:00:00Z', ?, NULL, ?, ?)",
                    job.value(), lastSequence, "old-form-" + nonce, ReplayJob.class.getName(), oldForm.getBytes(StandardCharsets.UTF_8),
                    "{}".getBytes(StandardCharsets.UTF_8));
            assertThat((Object) commands.sendAndWait(new RecordJobPublishResultCommand(job, manifest.get(1), 1, PublishStatus.PUBLISHED,
                    Instant.now()))).isEqualTo(JobRecording.ALREADY_RECORDED);

            // the snapshot lookup (Axon's query) goes by the aggregate's index
            Map<String, Object> plan = jdbc.queryForMap("EXPLAIN SELECT * FROM snapshot_event_entry WHERE aggregate_identifier = ?"
                    + " ORDER BY sequence_number DESC", job.value());
            assertThat(plan.get("key")).as(plan.toString()).isEqualTo("ix_snapshot_event_entry_aggregate");
        }
    }

    private static long timed(Runnable work) {
        long start = System.nanoTime();
        work.run();
        return System.nanoTime() - start;
    }

    /** As the runner's JobCommands: every command of a round nested in one unit of work, one transaction, one append. */
    private static void inOneUnit(TransactionManager transactions, Runnable commands) {
        DefaultUnitOfWork<?> unit = DefaultUnitOfWork.startAndGet(null);
        unit.attachTransaction(transactions);
        ResultMessage<?> outcome = unit.executeWithResult(() -> {
            commands.run();
            return null;
        }, RollbackConfigurationType.ANY_THROWABLE);
        if (outcome.isExceptional()) {
            throw new IllegalStateException(outcome.exceptionResult());
        }
    }

    private static long millis(List<Long> nanos, int percentile) {
        List<Long> sorted = new ArrayList<>(nanos);
        Collections.sort(sorted);
        int index = Math.min(sorted.size() - 1, (int) Math.ceil(percentile / 100.0 * sorted.size()) - 1);
        return sorted.get(Math.max(0, index)) / 1_000_000;
    }
}

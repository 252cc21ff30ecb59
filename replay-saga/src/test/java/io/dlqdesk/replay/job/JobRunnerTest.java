package io.dlqdesk.replay.job;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.OperatorAction;
import io.dlqdesk.domain.job.ClaimJobReplayCommand;
import io.dlqdesk.domain.job.RecordJobPublishResultCommand;
import io.dlqdesk.domain.job.RecordJobReplayCommand;
import io.dlqdesk.domain.job.ReplayJobCommandRefusedException;
import io.dlqdesk.domain.job.ReplayJobErrorCode;
import io.dlqdesk.domain.job.ReplayJobId;
import io.dlqdesk.domain.job.ReplayJobStatus;
import io.dlqdesk.domain.record.FailureKey;
import io.dlqdesk.domain.record.RecordLocation;
import io.dlqdesk.domain.replay.PublishStatus;
import io.dlqdesk.domain.replay.ReplayOutcome;
import io.dlqdesk.domain.replay.ReplayPolicy;
import io.dlqdesk.domain.replay.RequestReplayCommand;
import io.dlqdesk.domain.replay.SourceRecordFacts;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/** The runner's rounds with its collaborators faked: what it claims, asks, records and reports, on a clock moved by hand. */
class JobRunnerTest {

    private static final ReplayJobId JOB = new ReplayJobId("job-1");
    private static final Instant NOW = Instant.parse("2026-12-01T06:00:00Z");

    private final AtomicLong nanos = new AtomicLong();
    private final FakeWork work = new FakeWork();
    private final List<Object> sent = new ArrayList<>();
    private final List<IncidentId> asked = new ArrayList<>();
    private final List<IncidentId> prepared = new ArrayList<>();
    private final Set<IncidentId> earlier = new HashSet<>();
    private Predicate<Object> refuse = command -> false;
    private boolean leads = true;
    /** The switch as the runner reads it, and as the incident's request was prepared with (read a moment earlier). */
    private boolean switchOn = true;
    private boolean switchOnWhenPrepared = true;
    private JobRunner runner;

    private static IncidentId incident(int offset) {
        return IncidentId.of(new FailureKey("orders", 0, offset, "billing"));
    }

    /** The job's rows of the work list, as the test sets them. */
    private static final class FakeWork extends JobWorkList {
        JobWorkList.Job job = new JobWorkList.Job(JOB, ReplayJobStatus.RUNNING, 10, 50, "alice", "fix deployed");
        final List<Pending> pending = new ArrayList<>();
        final List<Unreported> unreported = new ArrayList<>();
        final Set<IncidentId> known = new HashSet<>();
        int inFlight;
        boolean down;

        FakeWork() {
            super(null);
        }

        @Override
        public List<Job> activeJobs() {
            if (down) {
                throw new org.springframework.dao.DataAccessResourceFailureException("database down");
            }
            return List.of(job);
        }

        @Override
        public List<Pending> pending(ReplayJobId job, int limit) {
            return pending.stream().limit(limit).toList();
        }

        @Override
        public int inFlight(ReplayJobId job) {
            return inFlight;
        }

        @Override
        public Set<IncidentId> known(ReplayJobId job, Collection<IncidentId> incidents) {
            Set<IncidentId> both = new HashSet<>(incidents);
            both.retainAll(known);
            return both;
        }

        @Override
        public List<Unreported> unreported(int limit) {
            return unreported;
        }

        final List<Instant> purges = new ArrayList<>();

        @Override
        public int purgeEnded(Instant endedBefore, int limit) {
            purges.add(endedBefore);
            return 0;
        }
    }

    /** Runs every ask at once, on the calling thread. */
    private static final class SameThread extends AbstractExecutorService {
        @Override
        public void execute(Runnable command) {
            command.run();
        }

        @Override
        public void shutdown() {
        }

        @Override
        public List<Runnable> shutdownNow() {
            return List.of();
        }

        @Override
        public boolean isShutdown() {
            return false;
        }

        @Override
        public boolean isTerminated() {
            return false;
        }

        @Override
        public boolean awaitTermination(long timeout, TimeUnit unit) {
            return true;
        }
    }

    @BeforeEach
    void setUp() {
        IncidentAsk asks = new IncidentAsk(null, null) {
            @Override
            Prepared prepare(ReplayJobId job, IncidentId incident, OperatorAction requestedBy) {
                prepared.add(incident);
                return earlier.contains(incident) ? new Prepared(ReplayOutcome.requested(2), null)
                        : new Prepared(null, new RequestReplayCommand(incident, SourceRecordFacts.notFound(new RecordLocation("orders", 0, 1)),
                        new ReplayPolicy(true, 3), switchOnWhenPrepared, "desk", requestedBy));
            }
        };
        JobCommands commands = new JobCommands(null, null) {
            @Override
            List<Answer> send(List<?> batch) {
                List<Answer> answers = new ArrayList<>();
                for (Object command : batch) {
                    sent.add(command);
                    answers.add(new Answer(null, null, null));
                }
                return answers;
            }

            @Override
            List<Answer> ask(List<Ask> batch) {
                List<Answer> answers = new ArrayList<>();
                for (Ask ask : batch) {
                    sent.add(ask.claim());
                    if (refuse.test(ask.claim())) {
                        answers.add(new Answer(null, new ReplayJobCommandRefusedException(JOB, ReplayJobErrorCode.NOT_RUNNING, "paused"), null));
                    } else {
                        asked.add(ask.claim().incidentId());
                        sent.add(new RecordJobReplayCommand(JOB, ask.claim().incidentId(), ReplayOutcome.requested(1)));
                        answers.add(new Answer(ReplayOutcome.requested(1), null, null));
                    }
                }
                return answers;
            }
        };
        runner = new JobRunner(work, asks, commands, () -> leads, () -> switchOn, Clock.fixed(NOW, ZoneOffset.UTC), nanos::get,
                new JobRunner.Settings(Duration.ofMillis(50), 1, Duration.ofDays(7)));
        runner.askOn(new SameThread());
    }

    private List<Object> sentOf(Class<?> type) {
        return sent.stream().filter(type::isInstance).toList();
    }

    @Test
    void eachIncidentIsClaimedThenAskedThenItsAnswerRecorded() {
        work.pending.add(new JobWorkList.Pending(JOB, incident(1), false));

        runner.tick(); // prepares: the history and the source record
        runner.tick(); // claims, asks and records the answer, in one unit of work

        assertThat(sentOf(ClaimJobReplayCommand.class)).containsExactly(new ClaimJobReplayCommand(JOB, incident(1), NOW, false));
        assertThat(asked).containsExactly(incident(1));
        assertThat(sentOf(RecordJobReplayCommand.class)).containsExactly(new RecordJobReplayCommand(JOB, incident(1), ReplayOutcome.requested(1)));
    }

    @Test
    void factsPreparedBeforeTheJobsChangedHandsAreNeverAskedWith() {
        work.pending.add(new JobWorkList.Pending(JOB, incident(1), false));
        runner.tick(); // prepared
        leads = false;
        runner.tick(); // another instance takes the jobs and may ask it meanwhile
        leads = true;
        runner.tick(); // back: what was prepared before is dropped and read again
        assertThat(asked).isEmpty();

        runner.tick();

        assertThat(prepared).containsExactly(incident(1), incident(1));
        assertThat(asked).containsExactly(incident(1));
    }

    @Test
    void factsReadTooLongAgoAreReadAgainBeforeTheIncidentIsAsked() {
        work.pending.add(new JobWorkList.Pending(JOB, incident(1), false));
        runner.tick(); // prepared
        nanos.addAndGet(JobRunner.PREPARED_FRESH_FOR.plusMillis(1).toNanos());

        runner.tick();
        assertThat(asked).as("not asked with facts that old").isEmpty();
        runner.tick(); // prepared again, and asked on the next round

        assertThat(prepared).containsExactly(incident(1), incident(1));
        runner.tick();
        assertThat(asked).containsExactly(incident(1));
    }

    @Test
    void aSwitchTurnedOffBetweenPreparingAndAskingAsksNothing() {
        work.pending.add(new JobWorkList.Pending(JOB, incident(1), false));
        runner.tick(); // prepared while it was on
        switchOn = false;

        runner.tick();

        assertThat(asked).isEmpty();
        assertThat(sentOf(ClaimJobReplayCommand.class)).isEmpty();
    }

    @Test
    void anIncidentClaimedBeforeAndNeverAnsweredIsClaimedAgainSoThatOnlyARunningJobAsksIt() {
        work.pending.add(new JobWorkList.Pending(JOB, incident(1), true));

        runner.tick();
        runner.tick();

        assertThat(sentOf(ClaimJobReplayCommand.class)).containsExactly(new ClaimJobReplayCommand(JOB, incident(1), NOW, true));
        assertThat(asked).containsExactly(incident(1));
    }

    @Test
    void anIncidentWhoseHistoryHoldsThisJobsRequestIsAnsweredFromItAndNotAskedAgain() {
        work.pending.add(new JobWorkList.Pending(JOB, incident(1), true));
        earlier.add(incident(1));

        runner.tick();
        runner.tick();

        assertThat(prepared).containsExactly(incident(1));
        assertThat(asked).isEmpty();
        assertThat(sentOf(ClaimJobReplayCommand.class)).isEmpty();
        assertThat(sentOf(RecordJobReplayCommand.class)).containsExactly(new RecordJobReplayCommand(JOB, incident(1), ReplayOutcome.requested(2)));
    }

    @Test
    void anIncidentWhoseClaimIsRefusedIsNeverAsked() {
        work.pending.add(new JobWorkList.Pending(JOB, incident(1), true));
        refuse = command -> command instanceof ClaimJobReplayCommand;

        runner.tick();
        runner.tick();

        assertThat(sentOf(ClaimJobReplayCommand.class)).isNotEmpty();
        assertThat(asked).isEmpty();
        assertThat(sentOf(RecordJobReplayCommand.class)).isEmpty();
    }

    @Test
    void anIncidentAskedInThisTermIsNotClaimedAgainWhileTheWorkListLags() {
        work.pending.add(new JobWorkList.Pending(JOB, incident(1), false));
        runner.tick();
        runner.tick();
        nanos.addAndGet(Duration.ofSeconds(10).toNanos());
        runner.tick(); // the work list still shows it pending

        assertThat(sentOf(ClaimJobReplayCommand.class)).hasSize(1);
        assertThat(asked).containsExactly(incident(1));
    }

    @Test
    void incidentsAreTakenAtTheRateAndNotBeyondTheBoundInFlight() {
        for (int i = 0; i < 100; i++) {
            work.pending.add(new JobWorkList.Pending(JOB, incident(i), false));
        }
        runner.tick();
        assertThat(prepared).as("the first at once").hasSize(1);
        runner.tick();
        assertThat(prepared).as("no permit yet").hasSize(1);
        nanos.addAndGet(Duration.ofMillis(100).toNanos());
        runner.tick();
        assertThat(prepared).as("a tenth of a second later at 10/s, one more").hasSize(2);

        work.inFlight = 47; // + the ones answered here that the work list does not show yet
        for (int i = 0; i < 20; i++) {
            nanos.addAndGet(Duration.ofMillis(100).toNanos());
            runner.tick();
        }
        assertThat(prepared).as("one place left below 50 in flight: 47 + 2 answered here + 1").hasSize(3);
        assertThat(asked).hasSize(3);
    }

    @Test
    void aPausedJobClaimsNothing() {
        work.job = new JobWorkList.Job(JOB, ReplayJobStatus.PAUSED, 10, 50, "alice", "fix deployed");
        work.pending.add(new JobWorkList.Pending(JOB, incident(1), false));

        runner.tick();

        assertThat(sent).isEmpty();
    }

    @Test
    void whileTheReplaySwitchIsOffNothingIsAskedAndTheJobGoesOnOnceItIsOn() {
        work.pending.add(new JobWorkList.Pending(JOB, incident(1), false));
        switchOn = false;
        for (int i = 0; i < 10; i++) {
            nanos.addAndGet(Duration.ofSeconds(1).toNanos());
            runner.tick();
        }
        assertThat(prepared).as("nothing even prepared").isEmpty();
        assertThat(sent).isEmpty();

        switchOn = true;
        runner.tick();
        runner.tick();
        assertThat(asked).containsExactly(incident(1));
    }

    @Test
    void anIncidentPreparedWhileTheSwitchWasOffIsNotClaimedButTakenAgainOnceItIsOn() {
        work.pending.add(new JobWorkList.Pending(JOB, incident(1), false));
        switchOnWhenPrepared = false; // turned off between the runner's read and the worker's
        runner.tick();
        runner.tick();
        assertThat(prepared).containsExactly(incident(1));
        assertThat(sent).as("not claimed: the incident would refuse REPLAY_SWITCH_OFF and the job record it for good").isEmpty();

        switchOnWhenPrepared = true;
        nanos.addAndGet(Duration.ofSeconds(1).toNanos());
        runner.tick();
        runner.tick();
        assertThat(asked).containsExactly(incident(1));
        assertThat(sentOf(RecordJobReplayCommand.class)).containsExactly(new RecordJobReplayCommand(JOB, incident(1), ReplayOutcome.requested(1)));
    }

    @Test
    void roundsFailingInARowAreSaidOnceAndTheirEndOnce() {
        ch.qos.logback.classic.Logger logger = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(JobRunner.class);
        ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> lines = new ch.qos.logback.core.read.ListAppender<>();
        lines.start();
        logger.addAppender(lines);
        try {
            work.down = true;
            for (int i = 0; i < 40; i++) {
                runner.tickSafely();
            }
            work.down = false;
            runner.tickSafely();
            runner.tickSafely();
        } finally {
            logger.detachAppender(lines);
        }
        List<String> warnings = lines.list.stream().filter(line -> line.getLevel() == ch.qos.logback.classic.Level.WARN)
                .map(ch.qos.logback.classic.spi.ILoggingEvent::getFormattedMessage).toList();
        assertThat(warnings).hasSize(1);
        assertThat(warnings.get(0)).contains("replay job round failed", "database down");
        assertThat(lines.list).filteredOn(line -> line.getLevel() == ch.qos.logback.classic.Level.INFO)
                .extracting(ch.qos.logback.classic.spi.ILoggingEvent::getFormattedMessage)
                .anySatisfy(line -> assertThat(line).contains("succeed again", "40 failed round(s)"));
    }

    @Test
    void theWorkListsOfJobsEndedLongerThanTheirRetentionAreDeletedEveryTenMinutes() {
        for (int i = 0; i < 5; i++) {
            runner.tick();
        }
        assertThat(work.purges).as("at the first report, with the ones ended 7 days before now").containsExactly(NOW.minus(Duration.ofDays(7)));
        nanos.addAndGet(Duration.ofMinutes(9).toNanos());
        for (int i = 0; i < 5; i++) {
            runner.tick();
        }
        assertThat(work.purges).hasSize(1);
        nanos.addAndGet(Duration.ofMinutes(1).toNanos());
        for (int i = 0; i < 5; i++) {
            runner.tick();
        }
        assertThat(work.purges).hasSize(2);
    }

    @Test
    void anInstanceThatDoesNotHoldTheWorkListDoesNothing() {
        leads = false;
        work.pending.add(new JobWorkList.Pending(JOB, incident(1), false));
        work.unreported.add(new JobWorkList.Unreported.Requested(JOB, incident(2), 1));

        runner.tick();

        assertThat(sent).isEmpty();
    }

    @Test
    void whatTheJobHasNotHeardIsReportedAnAnswerAStoppedRunnerNeverRecordedIncluded() {
        work.unreported.add(new JobWorkList.Unreported.Requested(JOB, incident(2), 3));
        work.unreported.add(new JobWorkList.Unreported.Decided(JOB, incident(4), 1, PublishStatus.PUBLISHED));

        runner.tick();

        assertThat(sent).containsExactly(new RecordJobReplayCommand(JOB, incident(2), ReplayOutcome.requested(3)),
                new RecordJobPublishResultCommand(JOB, incident(4), 1, PublishStatus.PUBLISHED, NOW));
        assertThat(asked).as("nothing asked again").isEmpty();
    }
}

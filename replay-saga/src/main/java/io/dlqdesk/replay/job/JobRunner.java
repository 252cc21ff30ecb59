package io.dlqdesk.replay.job;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.job.ReplayJobId;
import io.dlqdesk.domain.job.ReplayJobStatus;
import io.dlqdesk.periodic.PeriodicTask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.scheduling.concurrent.CustomizableThreadFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;

/**
 * Runs the RUNNING replay jobs, on the one instance that holds the work list's segment ({@code leads}). Each tick, per job:
 * as many of the next incidents as the job's rate allows and its bound in flight leaves room for are handed to the workers,
 * which read each incident's history and its source record exactly as a single replay does ({@link IncidentAsk}); the next
 * tick claims them on the job, sends their requests and records their answers, all in one unit of work per job
 * ({@link PreparedAsker}, {@link JobCommands#ask}). Every few ticks the job is told what it has not heard yet: publish
 * results and re-failures of its attempts (and answers a stopped runner left unrecorded; {@link JobReports}). The tick thread owns all of this state; workers only prepare
 * and hand back what they found.
 *
 * <p>Nothing is asked twice, and nothing after a pause or cancel is recorded: a request is stored only together with the
 * claim that allowed it (which only a RUNNING job takes, once per incident) and the answer, and an incident whose history
 * already holds a request of this job is answered from it instead of being asked.
 *
 * <p>While the replay switch is off nothing is asked: the incident would refuse (REPLAY_SWITCH_OFF) and the job record that
 * as its final answer, burning its selection. Its jobs stay RUNNING, holding the rollback check, and go on once it is on.
 */
public class JobRunner implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(JobRunner.class);
    /** The job is told what it has not heard yet every this many ticks ({@link JobReports}). */
    private static final int REPORT_EVERY_TICKS = 5;
    /**
     * Facts read longer ago than this are read again before the incident is asked: the source record, the switch and the
     * incident's history must be what they are when the request is made, not what they were before a slow round or a
     * change of the instance that runs the jobs.
     */
    static final Duration PREPARED_FRESH_FOR = Duration.ofSeconds(5);

    /** @param keepEnded how long the work list of an ended job is kept once nothing of it is in flight or to report */
    public record Settings(Duration tick, int workers, Duration keepEnded) {
    }

    private final JobWorkList work;
    private final IncidentAsk asks;
    private final JobCommands jobs;
    private final BooleanSupplier leads;
    private final BooleanSupplier switchOn;
    private final Clock clock;
    private final LongSupplier nanos;
    private final Settings settings;

    private final Map<ReplayJobId, JobState> states = new HashMap<>();
    private final PreparedAsker asker;
    private final JobReports reports;
    private final ConcurrentLinkedQueue<PreparedAsk> finished = new ConcurrentLinkedQueue<>();
    private boolean leading;
    /** Counts the times this instance took the jobs on: what was prepared in an earlier term is never asked. */
    private volatile long term;
    private boolean heldBySwitch;
    private long ticks;
    /** Rounds failed in a row (the database unreachable, say): said once when the streak starts and once when it ends. */
    private int failedRounds;
    private Instant failingSince;

    private final PeriodicTask rounds;
    /** Set by {@link #start()}, or by a test that runs ticks by hand. */
    private ExecutorService workers;

    public JobRunner(JobWorkList work, IncidentAsk asks, JobCommands jobs, BooleanSupplier leads, BooleanSupplier switchOn, Clock clock,
                     LongSupplier nanos, Settings settings) {
        this.work = work;
        this.asks = asks;
        this.jobs = jobs;
        this.leads = leads;
        this.switchOn = switchOn;
        this.clock = clock;
        this.nanos = nanos;
        this.settings = settings;
        this.asker = new PreparedAsker(jobs, switchOn, nanos);
        this.reports = new JobReports(work, jobs, clock, nanos, settings.keepEnded());
        this.rounds = PeriodicTask.named("replay-job-runner-").every(settings.tick()).finishingARoundWithin(Duration.ofSeconds(30))
                .runs(this::tickSafely);
    }

    /** For tests that run {@link #tick()} by hand: asks run on {@code workers}. */
    void askOn(ExecutorService workers) {
        this.workers = workers;
    }

    /** One round; the scheduler calls it every tick, tests call it by hand. */
    void tick() {
        if (!leads.getAsBoolean()) {
            if (leading) {
                log.info("replay jobs: this instance no longer holds the work list; another one runs the jobs");
                leading = false;
                term++;
                finished.clear();
            }
            return;
        }
        if (!leading) {
            log.info("replay jobs: this instance holds the work list and runs the jobs");
            leading = true;
            term++;
            finished.clear(); // prepared before another instance may have asked them: read again
            states.clear();
            reports.forget();
        }
        askPrepared();
        if (ticks++ % REPORT_EVERY_TICKS == 0) {
            reports.report();
            reports.purge();
        }
        List<JobWorkList.Job> active = work.activeJobs();
        Set<ReplayJobId> activeIds = active.stream().map(JobWorkList.Job::jobId).collect(Collectors.toSet());
        states.entrySet().removeIf(entry -> !activeIds.contains(entry.getKey()) && entry.getValue().asking.isEmpty());
        boolean asking = active.stream().anyMatch(job -> job.status() == ReplayJobStatus.RUNNING) && switchOnNow();
        for (JobWorkList.Job job : active) {
            if (job.status() == ReplayJobStatus.RUNNING) {
                if (asking) {
                    start(job);
                }
            } else {
                JobState state = states.get(job.jobId());
                if (state != null && state.idle()) {
                    states.remove(job.jobId()); // a paused job starts afresh on resume: nothing of it is kept here meanwhile
                }
            }
        }
    }

    /** Read only while a job runs; said once when it holds the jobs and once when it lets them go on. */
    private boolean switchOnNow() {
        boolean on = switchOn.getAsBoolean();
        if (!on && !heldBySwitch) {
            log.warn("replay jobs: the replay switch is off, so the running jobs ask nothing until it is turned on (they stay RUNNING)");
        } else if (on && heldBySwitch) {
            log.info("replay jobs: the replay switch is on again, the running jobs go on");
        }
        heldBySwitch = !on;
        return on;
    }

    private void start(JobWorkList.Job job) {
        JobState state = states.computeIfAbsent(job.jobId(), id -> new JobState(new RequestPacer(job.ratePerSecond(), nanos)));
        state.pacer.rate(job.ratePerSecond());
        state.answered.keySet().removeAll(work.known(job.jobId(), state.answered.keySet()));
        long answeredInFlight = state.answered.values().stream().filter(requested -> requested).count();
        long room = job.maxInFlight() - (work.inFlight(job.jobId()) + state.asking.size() + answeredInFlight);
        if (room <= 0) {
            return;
        }
        long now = nanos.getAsLong();
        int started = 0;
        int look = (int) Math.min(Integer.MAX_VALUE, room + state.asking.size() + state.answered.size() + state.askAgainAt.size());
        Instant at = clock.instant();
        for (JobWorkList.Pending pending : work.pending(job.jobId(), look)) {
            IncidentId incident = pending.incidentId();
            Long againAt = state.askAgainAt.get(incident);
            if (started >= room || state.asking.contains(incident) || state.answered.containsKey(incident)
                    || againAt != null && now - againAt < 0) {
                continue;
            }
            if (!state.pacer.tryAcquire()) {
                break;
            }
            started++;
            state.askAgainAt.remove(incident);
            state.asking.add(incident);
            boolean again = pending.claimed();
            long preparedIn = term;
            workers.execute(() -> prepare(job, incident, again, at, preparedIn));
        }
    }

    /** On a worker thread: the slow part (the incident's history, the source record), before anything is claimed. */
    private void prepare(JobWorkList.Job job, IncidentId incident, boolean again, Instant at, long preparedIn) {
        try {
            IncidentAsk.Prepared prepared = asks.prepare(job.jobId(), incident, job.requestedBy(at));
            finished.add(new PreparedAsk(job.jobId(), incident, again, prepared, at, null, preparedIn, nanos.getAsLong()));
        } catch (RuntimeException e) {
            finished.add(new PreparedAsk(job.jobId(), incident, again, null, at, e, preparedIn, nanos.getAsLong()));
        }
    }

    /** What the workers prepared in this term, asked by job. */
    private void askPrepared() {
        Map<ReplayJobId, List<PreparedAsk>> byJob = new LinkedHashMap<>();
        for (PreparedAsk done; (done = finished.poll()) != null; ) {
            if (done.term() == term) { // one of an earlier term comes back pending, and is read again
                byJob.computeIfAbsent(done.job(), id -> new ArrayList<>()).add(done);
            }
        }
        asker.ask(byJob, states);
    }

    void tickSafely() {
        try {
            tick();
            if (failedRounds > 0) {
                log.info("replay job rounds succeed again, after {} failed round(s) since {}", failedRounds, failingSince);
                failedRounds = 0;
            }
        } catch (RuntimeException e) {
            if (failedRounds++ == 0) {
                failingSince = clock.instant();
                log.warn("replay job round failed, trying again every {} (said again only once they succeed): {}", settings.tick(), e.toString());
            } else {
                log.debug("replay job round failed again ({} in a row): {}", failedRounds, e.toString());
            }
        }
    }

    @Override
    public synchronized void start() {
        CustomizableThreadFactory workerThreads = new CustomizableThreadFactory("replay-job-ask-");
        workerThreads.setDaemon(true);
        workers = Executors.newFixedThreadPool(settings.workers(), workerThreads);
        rounds.start();
    }

    @Override
    public synchronized void stop() {
        if (!rounds.isRunning()) {
            return;
        }
        // no new claim once stopping; asks under way finish, their answers are recorded by the next runner from the history
        workers.shutdown();
        rounds.stop(); // the tick under way finishes, for up to 30 s
        try {
            if (!workers.awaitTermination(30, TimeUnit.SECONDS)) {
                workers.shutdownNow();
            }
        } catch (InterruptedException e) {
            workers.shutdownNow();
            Thread.currentThread().interrupt();
        }
        workers = null;
    }

    @Override
    public boolean isRunning() {
        return rounds.isRunning();
    }

    @Override
    public int getPhase() {
        return Integer.MAX_VALUE - 200; // after Axon and the database are up; stopped before them
    }
}

package io.dlqdesk.replay.job;

import io.dlqdesk.domain.api.ClaimJobReplayCommand;
import io.dlqdesk.domain.api.IncidentId;
import io.dlqdesk.domain.api.RecordJobPublishResultCommand;
import io.dlqdesk.domain.api.RecordJobRefailureCommand;
import io.dlqdesk.domain.api.RecordJobReplayCommand;
import io.dlqdesk.domain.api.ReplayJobId;
import io.dlqdesk.domain.api.ReplayJobStatus;
import io.dlqdesk.domain.api.ReplayOutcome;
import io.dlqdesk.periodic.PeriodicTask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.scheduling.concurrent.CustomizableThreadFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
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
 * ({@link JobCommands#ask}). Every few ticks the job is told what it has not heard yet: publish results and re-failures of
 * its attempts (and answers a stopped runner left unrecorded). The tick thread owns all of this state; workers only prepare
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
    /** The job is told what it has not heard yet every this many ticks; a report not yet seen in the work list is sent again after {@link #REPORT_AGAIN_AFTER}. */
    private static final int REPORT_EVERY_TICKS = 5;
    private static final Duration REPORT_AGAIN_AFTER = Duration.ofSeconds(10);
    private static final int REPORT_LIMIT = 500;
    /** Ended jobs' work lists are deleted this often, at most this many rows at a time (more: again at the next report). */
    private static final Duration PURGE_EVERY = Duration.ofMinutes(10);
    private static final int PURGE_LIMIT = 10_000;
    /** An incident whose ask failed (broker unreachable, a database error) is tried again after this. */
    private static final Duration ASK_AGAIN_AFTER = Duration.ofSeconds(5);
    /**
     * Facts read longer ago than this are read again before the incident is asked: the source record, the switch and the
     * incident's history must be what they are when the request is made, not what they were before a slow round or a
     * change of the instance that runs the jobs.
     */
    static final Duration PREPARED_FRESH_FOR = Duration.ofSeconds(5);

    /** @param keepEnded how long the work list of an ended job is kept once nothing of it is in flight or to report */
    public record Settings(Duration tick, int workers, Duration keepEnded) {
    }

    /** What a worker hands back: the prepared request (or the answer found), or why it could not be prepared. */
    private record Finished(ReplayJobId job, IncidentId incident, boolean again, IncidentAsk.Prepared prepared, Instant at,
                            RuntimeException failure, long term, long preparedAtNanos) {
    }

    /** What the tick thread knows of one job beyond its work list, which lags. */
    private static final class JobState {
        final RequestPacer pacer;
        /** Handed to a worker to prepare, then claimed, asked and answered in one unit of work. */
        final Set<IncidentId> asking = new HashSet<>();
        /** Answered and recorded by this runner, not yet in the work list; true: requested (in flight). */
        final Map<IncidentId, Boolean> answered = new HashMap<>();
        /** Could not be prepared or asked: tried again from this time on. */
        final Map<IncidentId, Long> askAgainAt = new HashMap<>();

        JobState(RequestPacer pacer) {
            this.pacer = pacer;
        }

        boolean idle() {
            return asking.isEmpty() && answered.isEmpty() && askAgainAt.isEmpty();
        }
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
    private final Map<JobWorkList.Unreported, Long> reportedAt = new HashMap<>();
    private final ConcurrentLinkedQueue<Finished> finished = new ConcurrentLinkedQueue<>();
    private boolean leading;
    /** Counts the times this instance took the jobs on: what was prepared in an earlier term is never asked. */
    private volatile long term;
    private boolean heldBySwitch;
    private long ticks;
    /** Rounds failed in a row (the database unreachable, say): said once when the streak starts and once when it ends. */
    private int failedRounds;
    private Instant failingSince;
    private Long purgedAt;

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
            reportedAt.clear();
            purgedAt = null;
        }
        askPrepared();
        if (ticks++ % REPORT_EVERY_TICKS == 0) {
            report();
            purge();
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
            finished.add(new Finished(job.jobId(), incident, again, prepared, at, null, preparedIn, nanos.getAsLong()));
        } catch (RuntimeException e) {
            finished.add(new Finished(job.jobId(), incident, again, null, at, e, preparedIn, nanos.getAsLong()));
        }
    }

    /**
     * The prepared incidents of each job: answers found in their history recorded; the others claimed, asked and answered in
     * one unit of work, in incident id order (each incident stays locked until the unit ends, and every batch writer takes
     * them in that order).
     */
    private void askPrepared() {
        Map<ReplayJobId, List<Finished>> byJob = new LinkedHashMap<>();
        for (Finished done; (done = finished.poll()) != null; ) {
            if (done.term() == term) { // one of an earlier term comes back pending, and is read again
                byJob.computeIfAbsent(done.job(), id -> new ArrayList<>()).add(done);
            }
        }
        boolean switchOnNow = byJob.isEmpty() || switchOn.getAsBoolean();
        long now = nanos.getAsLong();
        byJob.forEach((job, done) -> {
            JobState state = states.computeIfAbsent(job, id -> new JobState(new RequestPacer(1, nanos)));
            List<Finished> earlier = new ArrayList<>();
            List<Finished> ready = new ArrayList<>();
            int held = 0;
            int stale = 0;
            for (Finished one : done) {
                if (one.failure() == null && one.prepared().earlier() == null && now - one.preparedAtNanos() > PREPARED_FRESH_FOR.toNanos()) {
                    state.asking.remove(one.incident()); // read too long ago: it is read again before it is asked
                    state.askAgainAt.put(one.incident(), now);
                    stale++;
                } else if (one.failure() == null && one.prepared().earlier() == null
                        && !(one.prepared().request().switchOn() && switchOnNow)) {
                    state.asking.remove(one.incident()); // read while the switch was off: not asked, it stays pending
                    held++;
                } else if (one.failure() != null) {
                    state.asking.remove(one.incident());
                    log.warn("replay job {}: {} could not be prepared, trying again in {}: {}", job, one.incident(), ASK_AGAIN_AFTER,
                            one.failure().toString());
                    state.askAgainAt.put(one.incident(), nanos.getAsLong() + ASK_AGAIN_AFTER.toNanos());
                } else if (one.prepared().earlier() != null) {
                    earlier.add(one);
                } else {
                    ready.add(one);
                }
            }
            if (held > 0) {
                log.info("replay job {}: {} incident(s) not claimed: the replay switch was off when they were prepared or asked", job, held);
            }
            if (stale > 0) {
                log.info("replay job {}: {} incident(s) prepared more than {} ago are read again before they are asked", job, stale,
                        PREPARED_FRESH_FOR);
            }
            ready.sort(Comparator.comparing(one -> one.incident().value()));
            List<JobCommands.Answer> recorded = jobs.send(earlier.stream()
                    .map(one -> new RecordJobReplayCommand(job, one.incident(), one.prepared().earlier())).toList());
            List<JobCommands.Answer> asked = jobs.ask(ready.stream().map(one -> new JobCommands.Ask(
                    new ClaimJobReplayCommand(job, one.incident(), one.at(), one.again()), one.prepared().request())).toList());
            settle(state, job, earlier, recorded, true);
            settle(state, job, ready, asked, false);
        });
    }

    private void settle(JobState state, ReplayJobId job, List<Finished> done, List<JobCommands.Answer> answers, boolean foundInHistory) {
        int requested = 0;
        int notClaimed = 0;
        for (int i = 0; i < done.size(); i++) {
            Finished one = done.get(i);
            JobCommands.Answer answer = answers.get(i);
            state.asking.remove(one.incident());
            if (answer.ok()) {
                ReplayOutcome outcome = foundInHistory ? one.prepared().earlier() : (ReplayOutcome) answer.result();
                state.answered.put(one.incident(), outcome.attempt() != null);
                requested += outcome.attempt() != null ? 1 : 0;
            } else if (answer.refused() != null) {
                notClaimed++;
            } else if (answer.failed() != null) {
                log.warn("replay job {}: {} not asked, trying again in {}: {}", job, one.incident(), ASK_AGAIN_AFTER, answer.failed().toString());
                state.askAgainAt.put(one.incident(), nanos.getAsLong() + ASK_AGAIN_AFTER.toNanos());
            }
            // refused: the job no longer runs (a pause, the canary, a cancel) or an earlier runner claimed it and the work
            // list does not show that yet: nothing was asked, and it comes back pending
        }
        if (!done.isEmpty()) {
            log.info("replay job {}: {} incident(s) {}, {} requested, {} not claimed (the job no longer runs)", job, done.size(),
                    foundInHistory ? "answered from their history" : "taken", requested, notClaimed);
        }
    }

    private void report() {
        long now = nanos.getAsLong();
        List<JobWorkList.Unreported> unreported = work.unreported(REPORT_LIMIT);
        reportedAt.keySet().retainAll(new HashSet<>(unreported));
        Instant at = clock.instant();
        Map<ReplayJobId, List<Object>> byJob = new LinkedHashMap<>();
        for (JobWorkList.Unreported one : unreported) {
            Long sent = reportedAt.get(one);
            if (sent != null && now - sent < REPORT_AGAIN_AFTER.toNanos()) {
                continue; // sent: the work list will show it
            }
            reportedAt.put(one, now);
            byJob.computeIfAbsent(one.jobId(), id -> new ArrayList<>()).add(command(one, at));
        }
        byJob.forEach((job, commands) -> {
            List<JobCommands.Answer> answers = jobs.send(commands);
            for (int i = 0; i < answers.size(); i++) {
                if (!answers.get(i).ok()) {
                    log.warn("replay job {}: {} not recorded: {}", job, commands.get(i), answers.get(i));
                }
            }
        });
    }

    private void purge() {
        long now = nanos.getAsLong();
        if (purgedAt != null && now - purgedAt < PURGE_EVERY.toNanos()) {
            return;
        }
        Instant before = clock.instant().minus(settings.keepEnded());
        int deleted = work.purgeEnded(before, PURGE_LIMIT);
        if (deleted > 0) {
            log.info("replay jobs: deleted {} work-list row(s) of jobs that ended before {} with everything decided and reported", deleted, before);
        }
        purgedAt = deleted < PURGE_LIMIT ? Long.valueOf(now) : null;
    }

    private static Object command(JobWorkList.Unreported one, Instant at) {
        if (one instanceof JobWorkList.Unreported.Requested requested) {
            return new RecordJobReplayCommand(one.jobId(), one.incidentId(), ReplayOutcome.requested(requested.attempt()));
        }
        if (one instanceof JobWorkList.Unreported.Decided decided) {
            return new RecordJobPublishResultCommand(one.jobId(), one.incidentId(), one.attempt(), decided.status(), at);
        }
        return new RecordJobRefailureCommand(one.jobId(), one.incidentId(), one.attempt(), at);
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

package io.dlqdesk.replay.job;

import io.dlqdesk.domain.job.RecordJobPublishResultCommand;
import io.dlqdesk.domain.job.RecordJobRefailureCommand;
import io.dlqdesk.domain.job.RecordJobReplayCommand;
import io.dlqdesk.domain.job.ReplayJobId;
import io.dlqdesk.domain.replay.ReplayOutcome;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Tells each job what it has not heard yet (publish results and re-failures of its attempts, and answers a stopped runner
 * left unrecorded), and deletes the work lists of ended jobs. Owned by the runner's tick thread.
 */
final class JobReports {

    private static final Logger log = LoggerFactory.getLogger(JobReports.class);
    /** A report not yet seen in the work list is sent again after this. */
    private static final Duration REPORT_AGAIN_AFTER = Duration.ofSeconds(10);
    private static final int REPORT_LIMIT = 500;
    /** Ended jobs' work lists are deleted this often, at most this many rows at a time (more: again at the next report). */
    private static final Duration PURGE_EVERY = Duration.ofMinutes(10);
    private static final int PURGE_LIMIT = 10_000;

    private final JobWorkList work;
    private final JobCommands jobs;
    private final Clock clock;
    private final LongSupplier nanos;
    private final Duration keepEnded;
    private final Map<JobWorkList.Unreported, Long> reportedAt = new HashMap<>();
    private Long purgedAt;

    JobReports(JobWorkList work, JobCommands jobs, Clock clock, LongSupplier nanos, Duration keepEnded) {
        this.work = work;
        this.jobs = jobs;
        this.clock = clock;
        this.nanos = nanos;
        this.keepEnded = keepEnded;
    }

    /** This instance took the jobs on: whatever it sent or purged before is not counted on. */
    void forget() {
        reportedAt.clear();
        purgedAt = null;
    }

    void report() {
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

    void purge() {
        long now = nanos.getAsLong();
        if (purgedAt != null && now - purgedAt < PURGE_EVERY.toNanos()) {
            return;
        }
        Instant before = clock.instant().minus(keepEnded);
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
}

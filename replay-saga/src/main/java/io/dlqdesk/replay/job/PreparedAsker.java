package io.dlqdesk.replay.job;

import io.dlqdesk.domain.job.ClaimJobReplayCommand;
import io.dlqdesk.domain.job.RecordJobReplayCommand;
import io.dlqdesk.domain.job.ReplayJobId;
import io.dlqdesk.domain.replay.ReplayOutcome;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * Asks, on the runner's tick thread, what the workers prepared, job by job: answers found in their history recorded; the
 * others claimed, asked and answered in one unit of work, in incident id order (each incident stays locked until the unit
 * ends, and every batch writer takes them in that order). What was read too long ago, or while the switch was off, is not
 * asked: it is read again, or stays pending.
 */
final class PreparedAsker {

    private static final Logger log = LoggerFactory.getLogger(PreparedAsker.class);
    /** An incident whose ask failed (broker unreachable, a database error) is tried again after this. */
    private static final Duration ASK_AGAIN_AFTER = Duration.ofSeconds(5);

    private final JobCommands jobs;
    private final BooleanSupplier switchOn;
    private final LongSupplier nanos;

    PreparedAsker(JobCommands jobs, BooleanSupplier switchOn, LongSupplier nanos) {
        this.jobs = jobs;
        this.switchOn = switchOn;
        this.nanos = nanos;
    }

    void ask(Map<ReplayJobId, List<PreparedAsk>> byJob, Map<ReplayJobId, JobState> states) {
        boolean switchOnNow = byJob.isEmpty() || switchOn.getAsBoolean();
        long now = nanos.getAsLong();
        byJob.forEach((job, done) -> {
            JobState state = states.computeIfAbsent(job, id -> new JobState(new RequestPacer(1, nanos)));
            List<PreparedAsk> earlier = new ArrayList<>();
            List<PreparedAsk> ready = new ArrayList<>();
            int held = 0;
            int stale = 0;
            for (PreparedAsk one : done) {
                if (one.failure() == null && one.prepared().earlier() == null && now - one.preparedAtNanos() > JobRunner.PREPARED_FRESH_FOR.toNanos()) {
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
                        JobRunner.PREPARED_FRESH_FOR);
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

    private void settle(JobState state, ReplayJobId job, List<PreparedAsk> done, List<JobCommands.Answer> answers, boolean foundInHistory) {
        int requested = 0;
        int notClaimed = 0;
        for (int i = 0; i < done.size(); i++) {
            PreparedAsk one = done.get(i);
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
}

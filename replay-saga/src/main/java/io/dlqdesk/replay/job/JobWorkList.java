package io.dlqdesk.replay.job;

import io.dlqdesk.domain.incident.IncidentId;
import io.dlqdesk.domain.incident.OperatorAction;
import io.dlqdesk.domain.job.ReplayJobId;
import io.dlqdesk.domain.job.ReplayJobStatus;
import io.dlqdesk.domain.replay.PublishStatus;
import org.springframework.jdbc.core.JdbcTemplate;

import java.sql.ResultSet;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The runner's reads of its work list (written by {@link JobWorkProjection}); it may lag the job, never lead it. */
public class JobWorkList {

    /** A job with work left. */
    public record Job(ReplayJobId jobId, ReplayJobStatus status, int ratePerSecond, int maxInFlight, String principal, String reason) {

        /** The request each incident of the job is asked with: the job's creator, the job named in the reason. */
        OperatorAction requestedBy(Instant at) {
            String why = "replay job " + jobId + ": " + reason;
            return new OperatorAction(principal, why.length() <= OperatorAction.MAX_REASON_LENGTH ? why
                    : why.substring(0, OperatorAction.MAX_REASON_LENGTH), at);
        }
    }

    /** An incident of a job not answered yet; {@code claimed}: some runner took it before (maybe one that stopped). */
    public record Pending(ReplayJobId jobId, IncidentId incidentId, boolean claimed) {
    }

    /** Something the job has not been told yet: an answer, a publish decision or a re-failure of one of its attempts. */
    public sealed interface Unreported permits Unreported.Requested, Unreported.Decided, Unreported.Refailed {
        ReplayJobId jobId();

        IncidentId incidentId();

        int attempt();

        /** The incident accepted the job's request (its history says so) but the job has no answer recorded. */
        record Requested(ReplayJobId jobId, IncidentId incidentId, int attempt) implements Unreported {
        }

        record Decided(ReplayJobId jobId, IncidentId incidentId, int attempt, PublishStatus status) implements Unreported {
        }

        record Refailed(ReplayJobId jobId, IncidentId incidentId, int attempt) implements Unreported {
        }
    }

    /** Ids per IN list. */
    private static final int IN_LIST = 1_000;

    private final JdbcTemplate jdbc;

    public JobWorkList(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    public List<Job> activeJobs() {
        return jdbc.query("SELECT job_id, status, rate_per_second, max_in_flight, principal, reason FROM replay_job_run"
                        + " WHERE status IN ('RUNNING', 'PAUSED', 'AWAITING_APPROVAL') ORDER BY job_id",
                (row, number) -> new Job(new ReplayJobId(row.getString("job_id")), ReplayJobStatus.valueOf(row.getString("status")),
                        row.getInt("rate_per_second"), row.getInt("max_in_flight"), row.getString("principal"), row.getString("reason")));
    }

    /**
     * The job's next incidents without an answer or a known attempt, in manifest order. Ordered by all of V304's pending index
     * (the same order: the columns before seq are fixed by the condition), so the database reads that index from the first
     * pending row on; ordered by seq alone, it walked the primary key over every answered row before them.
     */
    public List<Pending> pending(ReplayJobId job, int limit) {
        return jdbc.query("SELECT incident_id, claimed FROM replay_job_item WHERE job_id = ? AND answer IS NULL AND attempt IS NULL"
                        + " ORDER BY job_id, answer, attempt, seq LIMIT ?", (row, number) -> new Pending(job, new IncidentId(row.getString("incident_id")),
                        row.getBoolean("claimed")), job.value(), limit);
    }

    /** The job's requested attempts not decided yet, as far as the work list knows (V304's in-flight index). */
    public int inFlight(ReplayJobId job) {
        Integer count = jdbc.queryForObject("SELECT COUNT(*) FROM replay_job_item WHERE job_id = ? AND attempt IS NOT NULL"
                + " AND publish_status IS NULL", Integer.class, job.value());
        return count == null ? 0 : count;
    }

    /** Which of these incidents of the job the work list shows answered or with a known attempt. */
    public Set<IncidentId> known(ReplayJobId job, Collection<IncidentId> incidents) {
        if (incidents.isEmpty()) {
            return Set.of();
        }
        Object[] arguments = new Object[incidents.size() + 1];
        arguments[0] = job.value();
        int i = 1;
        for (IncidentId incident : incidents) {
            arguments[i++] = incident.value();
        }
        return new HashSet<>(jdbc.query("SELECT incident_id FROM replay_job_item WHERE job_id = ? AND (answer IS NOT NULL OR attempt IS NOT NULL)"
                        + " AND incident_id IN (" + String.join(", ", Collections.nCopies(incidents.size(), "?")) + ")",
                (row, number) -> new IncidentId(row.getString("incident_id")), arguments));
    }

    /**
     * Which of these incidents are in a job with work left (RUNNING, PAUSED or AWAITING_APPROVAL), and the job; the work list follows a new job
     * within moments of its creation.
     */
    public Map<IncidentId, ReplayJobId> inActiveJobs(Collection<IncidentId> incidents) {
        Map<IncidentId, ReplayJobId> found = new LinkedHashMap<>();
        List<IncidentId> all = List.copyOf(incidents);
        for (int from = 0; from < all.size(); from += IN_LIST) {
            List<IncidentId> chunk = all.subList(from, Math.min(all.size(), from + IN_LIST));
            jdbc.query("SELECT i.incident_id, i.job_id FROM replay_job_item i JOIN replay_job_run r ON r.job_id = i.job_id"
                            + " WHERE r.status IN ('RUNNING', 'PAUSED', 'AWAITING_APPROVAL') AND i.incident_id IN ("
                            + String.join(", ", Collections.nCopies(chunk.size(), "?")) + ") ORDER BY i.job_id, i.seq",
                    (ResultSet row) -> {
                        found.putIfAbsent(new IncidentId(row.getString("incident_id")), new ReplayJobId(row.getString("job_id")));
                    }, chunk.stream().map(IncidentId::value).toArray());
        }
        return found;
    }

    /**
     * What the jobs (any status: replays requested before a cancel still finish) have not been told yet, oldest jobs first:
     * the rows V304's {@code report_due} marks, read by its index, so nothing to report costs one index probe.
     */
    public List<Unreported> unreported(int limit) {
        return jdbc.query("SELECT job_id, incident_id, attempt, answer, publish_status, result_recorded, refailed, refailure_recorded"
                + " FROM replay_job_item WHERE report_due = TRUE ORDER BY job_id, seq LIMIT ?", (row, number) -> {
            ReplayJobId job = new ReplayJobId(row.getString("job_id"));
            IncidentId incident = new IncidentId(row.getString("incident_id"));
            int attempt = row.getInt("attempt");
            if (row.getString("answer") == null) {
                return new Unreported.Requested(job, incident, attempt);
            }
            if (row.getString("publish_status") != null && !row.getBoolean("result_recorded")) {
                return new Unreported.Decided(job, incident, attempt, PublishStatus.valueOf(row.getString("publish_status")));
            }
            return new Unreported.Refailed(job, incident, attempt);
        }, limit);
    }

    /**
     * Deletes the rows of jobs that ended (cancelled or completed) before {@code endedBefore} and have nothing left in flight
     * or to report, at most {@code limit} rows; the job's own row stays (it is small, and says the job ended).
     *
     * @return the rows deleted
     */
    public int purgeEnded(Instant endedBefore, int limit) {
        List<String> jobs = jdbc.queryForList("SELECT r.job_id FROM replay_job_run r WHERE r.status IN ('CANCELLED', 'COMPLETED')"
                + " AND r.ended_at < ? AND EXISTS (SELECT 1 FROM replay_job_item i WHERE i.job_id = r.job_id)"
                + " AND NOT EXISTS (SELECT 1 FROM replay_job_item i WHERE i.job_id = r.job_id AND i.publish_status IS NULL AND i.attempt IS NOT NULL)"
                + " AND NOT EXISTS (SELECT 1 FROM replay_job_item i WHERE i.report_due = TRUE AND i.job_id = r.job_id)"
                + " ORDER BY r.ended_at LIMIT 10", String.class, LocalDateTime.ofInstant(endedBefore, ZoneOffset.UTC));
        int deleted = 0;
        for (String job : jobs) {
            if (deleted >= limit) {
                break;
            }
            deleted += jdbc.update("DELETE FROM replay_job_item WHERE job_id = ? LIMIT ?", job, limit - deleted);
        }
        return deleted;
    }
}

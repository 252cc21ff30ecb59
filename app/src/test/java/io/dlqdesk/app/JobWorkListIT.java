package io.dlqdesk.app;

import io.dlqdesk.domain.job.ReplayJobId;
import io.dlqdesk.replay.job.JobWorkList;
import io.dlqdesk.testsupport.RealInfrastructure;
import io.dlqdesk.testsupport.TestDatabase;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The replay-job runner's reads of its work list on the real database, with the rows a busy desk has: each read touches
 * about the rows it returns (counted by the database's own handler counters on one connection), not the rows of the job or
 * the table before them; and the rows of jobs that ended long ago with everything decided and reported are deleted, the
 * others kept.
 */
@RealInfrastructure
class JobWorkListIT {

    private static final String ACTIVE = "job-active";
    private static SingleConnectionDataSource connection;
    private static JdbcTemplate jdbc;
    private static JobWorkList work;

    @BeforeAll
    static void setUp(TestDatabase database) {
        Flyway.configure().dataSource(database.jdbcUrl(), database.username(), database.password())
                .locations("classpath:db/migration/replay").load().migrate();
        connection = new SingleConnectionDataSource(database.jdbcUrl(), database.username(), database.password(), true);
        jdbc = new JdbcTemplate(connection);
        work = new JobWorkList(jdbc);

        Instant now = Instant.now();
        // a job that ended a month ago, everything decided and reported: the bulk of the table
        job("job-ended-old", "COMPLETED", now.minus(Duration.ofDays(30)));
        items("job-ended-old", 0, 3_000, "'REQUESTED'", 1, "'PUBLISHED'", true, false, false);
        // the running job: 1,500 answered and reported, 20 in flight, 5 decided and not reported yet, 475 still to ask
        job(ACTIVE, "RUNNING", null);
        items(ACTIVE, 0, 1_500, "'REQUESTED'", 1, "'PUBLISHED'", true, false, false);
        items(ACTIVE, 1_500, 20, "'REQUESTED'", 1, "NULL", false, false, false);
        items(ACTIVE, 1_520, 5, "'REQUESTED'", 1, "'PUBLISHED'", false, false, false);
        items(ACTIVE, 1_525, 475, "NULL", null, "NULL", false, false, false);
        // ended long ago, but one replay still in flight; one re-failure not reported yet; ended an hour ago
        job("job-ended-in-flight", "CANCELLED", now.minus(Duration.ofDays(30)));
        items("job-ended-in-flight", 0, 9, "'REQUESTED'", 1, "'PUBLISHED'", true, false, false);
        items("job-ended-in-flight", 9, 1, "'REQUESTED'", 1, "NULL", false, false, false);
        job("job-ended-refailure", "CANCELLED", now.minus(Duration.ofDays(30)));
        items("job-ended-refailure", 0, 9, "'REQUESTED'", 1, "'PUBLISHED'", true, false, false);
        items("job-ended-refailure", 9, 1, "'REQUESTED'", 1, "'PUBLISHED'", true, true, false);
        job("job-ended-recently", "COMPLETED", now.minus(Duration.ofHours(1)));
        items("job-ended-recently", 0, 10, "'REFUSED'", null, "NULL", false, false, false);
        jdbc.execute("ANALYZE TABLE replay_job_item, replay_job_run");
    }

    @AfterAll
    static void tearDown() {
        connection.destroy();
    }

    private static void job(String job, String status, Instant endedAt) {
        jdbc.update("INSERT INTO replay_job_run (job_id, status, rate_per_second, max_in_flight, principal, reason, ended_at)"
                + " VALUES (?, ?, 10, 50, 'alice', 'fix', ?)", job, status, endedAt == null ? null : LocalDateTime.ofInstant(endedAt, ZoneOffset.UTC));
    }

    private static void items(String job, int from, int count, String answer, Integer attempt, String publishStatus, boolean resultRecorded,
                              boolean refailed, boolean refailureRecorded) {
        List<Object[]> rows = new ArrayList<>();
        for (int seq = from; seq < from + count; seq++) {
            rows.add(new Object[]{job, seq, String.format("inc-%032x", (long) job.hashCode() * 1_000_000 + seq), attempt, resultRecorded, refailed,
                    refailureRecorded});
        }
        jdbc.batchUpdate("INSERT INTO replay_job_item (job_id, seq, incident_id, claimed, answer, attempt, publish_status, result_recorded,"
                + " refailed, refailure_recorded) VALUES (?, ?, ?, TRUE, " + answer + ", ?, " + publishStatus + ", ?, ?, ?)", rows);
    }

    /** Rows the database read for {@code read} (its handler counters, less what reading them costs). */
    private static <T> Read<T> counted(Supplier<T> read) {
        long first = handlerReads();
        long noise = handlerReads() - first;
        long before = handlerReads();
        T result = read.get();
        return new Read<>(result, handlerReads() - before - noise);
    }

    private record Read<T>(T result, long rows) {
    }

    private static long handlerReads() {
        long[] sum = {0};
        jdbc.query("SHOW SESSION STATUS LIKE 'Handler_read%'", row -> {
            sum[0] += row.getLong(2);
        });
        return sum[0];
    }

    @Test
    void aJobsNextPendingIncidentsAreReadWithoutTheAnsweredRowsBeforeThem() {
        Read<List<JobWorkList.Pending>> pending = counted(() -> work.pending(new ReplayJobId(ACTIVE), 50));

        assertThat(pending.result()).hasSize(50);
        assertThat(pending.result().get(0).incidentId().value()).isEqualTo(String.format("inc-%032x", (long) ACTIVE.hashCode() * 1_000_000 + 1_525));
        assertThat(pending.rows()).as("rows read for 50 pending of a job with 1,525 answered").isLessThan(200);
    }

    @Test
    void aJobsAttemptsInFlightAreCountedFromThemAlone() {
        Read<Integer> inFlight = counted(() -> work.inFlight(new ReplayJobId(ACTIVE)));

        assertThat(inFlight.result()).isEqualTo(20);
        assertThat(inFlight.rows()).as("rows read to count 20 in flight among 2,000").isLessThan(100);
    }

    @Test
    void whatTheJobsHaveNotBeenToldIsReadFromItsIndexAndFollowsTheRows() {
        Read<List<JobWorkList.Unreported>> unreported = counted(() -> work.unreported(500));

        assertThat(unreported.result()).hasSize(6);
        assertThat(unreported.result()).filteredOn(one -> one instanceof JobWorkList.Unreported.Decided).hasSize(5);
        assertThat(unreported.result()).filteredOn(one -> one instanceof JobWorkList.Unreported.Refailed).hasSize(1);
        assertThat(unreported.rows()).as("rows read for 6 to report among 5,050").isLessThan(100);

        jdbc.update("UPDATE replay_job_item SET result_recorded = TRUE WHERE job_id = ? AND seq = 1520", ACTIVE);
        assertThat(work.unreported(500)).as("a recorded result is no longer due").hasSize(5);
        jdbc.update("UPDATE replay_job_item SET result_recorded = FALSE WHERE job_id = ? AND seq = 1520", ACTIVE);
        assertThat(counted(() -> work.unreported(500)).result()).hasSize(6);
    }

    @Test
    void onlyTheRowsOfJobsEndedBeforeTheRetentionWithNothingLeftToDecideOrReportAreDeleted() {
        int deleted = work.purgeEnded(Instant.now().minus(Duration.ofDays(7)), 10_000);

        assertThat(deleted).isEqualTo(3_000);
        assertThat(rowsOf("job-ended-old")).isZero();
        assertThat(rowsOf("job-ended-in-flight")).as("a replay still in flight").isEqualTo(10);
        assertThat(rowsOf("job-ended-refailure")).as("a re-failure not reported yet").isEqualTo(10);
        assertThat(rowsOf("job-ended-recently")).as("within the retention").isEqualTo(10);
        assertThat(rowsOf(ACTIVE)).as("running").isEqualTo(2_000);
        assertThat(jdbc.queryForObject("SELECT status FROM replay_job_run WHERE job_id = 'job-ended-old'", String.class)).isEqualTo("COMPLETED");
        assertThat(work.purgeEnded(Instant.now().minus(Duration.ofDays(7)), 10_000)).as("nothing more").isZero();
    }

    private static int rowsOf(String job) {
        Integer rows = jdbc.queryForObject("SELECT COUNT(*) FROM replay_job_item WHERE job_id = ?", Integer.class, job);
        return rows == null ? 0 : rows;
    }
}

package io.dlqdesk.projections.job;

import io.dlqdesk.domain.job.ReplayJobStatus;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/** A job's ETA is said only while it moves; a RUNNING job in which nothing moved for a minute says since when instead. */
class ReplayJobPaceTest {

    private static final Instant NOW = Instant.parse("2026-12-01T06:00:00Z");

    @Test
    void aRunningJobThatMovedWithinTheLastMinuteIsNotStalled() {
        assertThat(ReplayJobProjection.stalledSince(ReplayJobStatus.RUNNING, NOW.minusSeconds(59), NOW)).isNull();
        assertThat(ReplayJobProjection.eta(100, 10, NOW)).isEqualTo(NOW.plusSeconds(10));
    }

    @Test
    void aRunningJobInWhichNothingMovedForAMinuteIsStalledSinceItLastMoved() {
        Instant lastMoved = NOW.minus(Duration.ofMinutes(5));

        assertThat(ReplayJobProjection.stalledSince(ReplayJobStatus.RUNNING, lastMoved, NOW)).isEqualTo(lastMoved);
        assertThat(ReplayJobProjection.stalledSince(ReplayJobStatus.RUNNING, NOW.minusSeconds(60), NOW)).isEqualTo(NOW.minusSeconds(60));
    }

    @Test
    void aJobThatDoesNotRunIsNeverStalled() {
        for (ReplayJobStatus status : new ReplayJobStatus[]{ReplayJobStatus.PAUSED, ReplayJobStatus.CANCELLED, ReplayJobStatus.COMPLETED}) {
            assertThat(ReplayJobProjection.stalledSince(status, NOW.minus(Duration.ofHours(1)), NOW)).as(status.name()).isNull();
        }
    }
}

package io.dlqdesk.replay.job;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class RequestPacerTest {

    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);

    private int takenOver(RequestPacer pacer, long millis, long stepMillis) {
        int taken = 0;
        for (long t = 0; t < millis; t += stepMillis) {
            nanos.addAndGet(stepMillis * 1_000_000L);
            while (pacer.tryAcquire()) {
                taken++;
            }
        }
        return taken;
    }

    @Test
    void permitsFollowTheRateOverTime() {
        RequestPacer pacer = new RequestPacer(50, nanos::get);
        assertThat(pacer.tryAcquire()).as("the first goes at once").isTrue();
        assertThat(takenOver(pacer, 10_000, 50)).isBetween(499, 501);
    }

    @Test
    void anIdleSpellDoesNotBurstMoreThanASecondsWorth() {
        RequestPacer pacer = new RequestPacer(100, nanos::get);
        nanos.addAndGet(60_000_000_000L);
        int burst = 0;
        while (pacer.tryAcquire()) {
            burst++;
        }
        assertThat(burst).isEqualTo(100);
        assertThat(pacer.tryAcquire()).as("refused once the bucket is empty").isFalse();
    }

    @Test
    void aRoundThatTookLongerThanATickIsMadeUpForSoTheRateHoldsOnAverage() {
        RequestPacer pacer = new RequestPacer(50, nanos::get);
        assertThat(takenOver(pacer, 10_000, 400)).as("rounds of 400 ms, ticks of 50 ms").isBetween(499, 501);
    }

    @Test
    void aSlowRateStillAllowsOneAtATime() {
        RequestPacer pacer = new RequestPacer(1, nanos::get);
        assertThat(pacer.tryAcquire()).isTrue();
        nanos.addAndGet(999_000_000L);
        assertThat(pacer.tryAcquire()).as("before a second has passed").isFalse();
        nanos.addAndGet(1_000_000L);
        assertThat(pacer.tryAcquire()).as("after it").isTrue();
    }

    @Test
    void aNewRateAppliesFromTheNextPermit() {
        RequestPacer pacer = new RequestPacer(10, nanos::get);
        pacer.tryAcquire();
        pacer.rate(500);
        assertThat(takenOver(pacer, 1_000, 10)).isBetween(499, 501);
    }
}

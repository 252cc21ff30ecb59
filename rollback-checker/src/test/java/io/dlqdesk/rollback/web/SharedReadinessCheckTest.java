package io.dlqdesk.rollback.web;

import io.dlqdesk.rollback.check.ReadinessReport;
import io.dlqdesk.rollback.check.Verdict;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class SharedReadinessCheckTest {

    private final AtomicInteger started = new AtomicInteger();
    private final List<CountDownLatch> releases = List.of(new CountDownLatch(1), new CountDownLatch(1), new CountDownLatch(1));

    /** Each check waits for its own release and reports its number in the explanation of an UNKNOWN report. */
    private ReadinessReport check() {
        int number = started.getAndIncrement();
        try {
            releases.get(number).await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return ReadinessReport.couldNotCheck(Instant.EPOCH, "check " + number);
    }

    @Test
    void callersArrivingDuringACheckShareTheNextCheckNotTheRunningOne() throws Exception {
        try (SharedReadinessCheck checks = new SharedReadinessCheck(this::check, 100, Clock.systemUTC())) {
            CompletableFuture<ReadinessReport> first = checks.nextVerdict().orElseThrow();
            awaitStarted(1);
            List<CompletableFuture<ReadinessReport>> later = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                later.add(checks.nextVerdict().orElseThrow());
            }
            releases.get(0).countDown();
            assertThat(explanation(first.get(5, TimeUnit.SECONDS))).isEqualTo("check 0");
            awaitStarted(2);
            releases.get(1).countDown();
            for (CompletableFuture<ReadinessReport> verdict : later) {
                assertThat(explanation(verdict.get(5, TimeUnit.SECONDS))).isEqualTo("check 1");
            }
            assertThat(started).hasValue(2);
            assertThat(checks.waiting()).isZero();
        }
    }

    @Test
    void beyondTheWaiterBoundACallerIsTurnedAwayAtOnceAndAdmittedAgainAfterTheCheck() throws Exception {
        try (SharedReadinessCheck checks = new SharedReadinessCheck(this::check, 3, Clock.systemUTC())) {
            List<Optional<CompletableFuture<ReadinessReport>>> admitted = List.of(checks.nextVerdict(), checks.nextVerdict(), checks.nextVerdict());
            assertThat(admitted).allMatch(Optional::isPresent);
            assertThat(checks.nextVerdict()).isEmpty();
            assertThat(checks.retryAfter()).isPositive();
            awaitStarted(1);
            releases.get(0).countDown();
            admitted.get(0).orElseThrow().get(5, TimeUnit.SECONDS);
            Optional<CompletableFuture<ReadinessReport>> again = checks.nextVerdict();
            assertThat(again).isPresent();
            releases.get(1).countDown();
            releases.get(2).countDown();
            assertThat(explanation(again.orElseThrow().get(5, TimeUnit.SECONDS))).isEqualTo("check 2");
            assertThat(explanation(admitted.get(2).orElseThrow().get(5, TimeUnit.SECONDS))).isEqualTo("check 1");
        }
    }

    @Test
    void aFailingCheckIsAnUnknownVerdictAndFreesItsWaiters() throws Exception {
        try (SharedReadinessCheck checks = new SharedReadinessCheck(() -> {
            throw new IllegalStateException("boom");
        }, 1, Clock.systemUTC())) {
            ReadinessReport report = checks.nextVerdict().orElseThrow().get(5, TimeUnit.SECONDS);
            assertThat(report.verdict()).isEqualTo(Verdict.UNKNOWN);
            assertThat(explanation(report)).contains("boom");
            assertThat(checks.nextVerdict()).isPresent();
        }
    }

    private void awaitStarted(int count) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (started.get() < count && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(started.get()).isGreaterThanOrEqualTo(count);
    }

    private static String explanation(ReadinessReport report) {
        return report.conditions().get(0).explanation();
    }
}

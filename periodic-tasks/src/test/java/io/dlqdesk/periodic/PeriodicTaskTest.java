package io.dlqdesk.periodic;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class PeriodicTaskTest {

    private PeriodicTask task;

    @AfterEach
    void stop() {
        if (task != null) {
            task.stop();
        }
    }

    @Test
    void roundsRunOneAfterAnotherOnTheNamedDaemonThread() {
        List<Thread> threads = new CopyOnWriteArrayList<>();
        task = PeriodicTask.named("test-rounds-").firstAfter(Duration.ZERO).every(Duration.ofMillis(10))
                .runs(() -> threads.add(Thread.currentThread()));
        task.start();

        await().atMost(Duration.ofSeconds(5)).until(() -> threads.size() >= 3);
        assertThat(threads).allSatisfy(thread -> {
            assertThat(thread.getName()).isEqualTo("test-rounds-1");
            assertThat(thread.isDaemon()).isTrue();
        });
        assertThat(task.isRunning()).isTrue();
    }

    @Test
    void aRoundThatThrowsDoesNotEndTheRounds() {
        AtomicInteger rounds = new AtomicInteger();
        task = PeriodicTask.named("test-throwing-").firstAfter(Duration.ZERO).every(Duration.ofMillis(10)).runs(() -> {
            rounds.incrementAndGet();
            throw new AssertionError("a bug");
        });
        task.start();

        await().atMost(Duration.ofSeconds(5)).until(() -> rounds.get() >= 3);
    }

    @Test
    void aPacedRoundSaysHowLongToWaitBeforeTheNext() {
        AtomicInteger rounds = new AtomicInteger();
        task = PeriodicTask.named("test-paced-").firstAfter(Duration.ZERO).every(Duration.ofHours(1))
                .runsPaced(() -> rounds.incrementAndGet() < 3 ? Duration.ofMillis(10) : Duration.ofHours(1));
        task.start();

        await().atMost(Duration.ofSeconds(5)).until(() -> rounds.get() == 3);
    }

    @Test
    void stoppingInterruptsTheRoundUnderWayAndNoRoundFollows() throws InterruptedException {
        CountDownLatch started = new CountDownLatch(1);
        AtomicBoolean interrupted = new AtomicBoolean();
        AtomicInteger rounds = new AtomicInteger();
        task = PeriodicTask.named("test-interrupted-").firstAfter(Duration.ZERO).every(Duration.ofMillis(1)).runs(() -> {
            rounds.incrementAndGet();
            started.countDown();
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                interrupted.set(true);
            }
        });
        task.start();
        assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();

        task.stop();

        assertThat(task.isRunning()).isFalse();
        assertThat(task.awaitStopped(Duration.ofSeconds(5))).isTrue();
        assertThat(interrupted).isTrue();
        assertThat(rounds).hasValue(1);
    }

    @Test
    void aTaskThatFinishesItsRoundLetsItEndBeforeStopReturns() throws InterruptedException {
        CountDownLatch started = new CountDownLatch(1);
        AtomicBoolean finished = new AtomicBoolean();
        AtomicBoolean interrupted = new AtomicBoolean();
        task = PeriodicTask.named("test-finishing-").firstAfter(Duration.ZERO).every(Duration.ofHours(1))
                .finishingARoundWithin(Duration.ofSeconds(30)).runs(() -> {
                    started.countDown();
                    try {
                        Thread.sleep(300);
                        finished.set(true);
                    } catch (InterruptedException e) {
                        interrupted.set(true);
                    }
                });
        task.start();
        assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();

        task.stop();

        assertThat(finished).isTrue();
        assertThat(interrupted).isFalse();
    }

    @Test
    void aRoundStillRunningAfterTheGracePeriodIsInterrupted() throws InterruptedException {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        task = PeriodicTask.named("test-overdue-").firstAfter(Duration.ZERO).every(Duration.ofHours(1))
                .finishingARoundWithin(Duration.ofMillis(100)).runs(() -> {
                    started.countDown();
                    try {
                        Thread.sleep(60_000);
                    } catch (InterruptedException e) {
                        interrupted.countDown();
                    }
                });
        task.start();
        assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();

        task.stop();

        assertThat(interrupted.await(5, TimeUnit.SECONDS)).isTrue();
    }
}

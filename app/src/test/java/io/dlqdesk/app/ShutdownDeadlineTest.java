package io.dlqdesk.app;

import org.junit.jupiter.api.Test;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.context.support.GenericApplicationContext;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class ShutdownDeadlineTest {

    private final GenericApplicationContext context = new GenericApplicationContext();
    private final CountDownLatch halted = new CountDownLatch(1);

    @Test
    void aShutdownOfTheJvmStillRunningAtTheDeadlineHalts() throws Exception {
        ShutdownDeadline deadline = new ShutdownDeadline(context, Duration.ofMillis(300), () -> true, () -> true, halted::countDown);
        long start = System.nanoTime();
        deadline.onApplicationEvent(new ContextClosedEvent(context));
        assertThat(halted.await(10, TimeUnit.SECONDS)).as("halted").isTrue();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("not before the deadline").isGreaterThanOrEqualTo(Duration.ofMillis(300));
    }

    @Test
    void aContextClosedWhileTheJvmRunsOnIsNotTheProcesssToEnd() throws Exception {
        ShutdownDeadline deadline = new ShutdownDeadline(context, Duration.ofMillis(100), () -> false, () -> true, halted::countDown);
        deadline.onApplicationEvent(new ContextClosedEvent(context));
        assertThat(halted.await(1, TimeUnit.SECONDS)).as("halted").isFalse();
    }

    @Test
    void anotherContextsCloseIsNotThisOnesShutdown() throws Exception {
        ShutdownDeadline deadline = new ShutdownDeadline(context, Duration.ofMillis(100), () -> true, () -> true, halted::countDown);
        deadline.onApplicationEvent(new ContextClosedEvent(new GenericApplicationContext()));
        assertThat(halted.await(1, TimeUnit.SECONDS)).as("halted").isFalse();
    }

    @Test
    void aContextThatFinishedClosingBeforeTheDeadlineIsNotHalted() throws Exception {
        ShutdownDeadline deadline = new ShutdownDeadline(context, Duration.ofMillis(100), () -> true, () -> false, halted::countDown);
        deadline.onApplicationEvent(new ContextClosedEvent(context));
        assertThat(halted.await(1, TimeUnit.SECONDS)).as("halted").isFalse();
    }
}

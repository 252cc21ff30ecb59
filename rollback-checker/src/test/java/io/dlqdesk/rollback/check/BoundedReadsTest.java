package io.dlqdesk.rollback.check;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BoundedReadsTest {

    private static final Duration BOUND = Duration.ofSeconds(5);

    private final BoundedReads reads = new BoundedReads();

    @AfterEach
    void close() {
        reads.close();
    }

    @Test
    void aReadThatAnswersInTimeGivesItsValue() throws Exception {
        Read<Long> read = reads.read("database", () -> 7L, BOUND);

        assertThat(read.failed()).isFalse();
        assertThat(read.value()).isEqualTo(7L);
    }

    @Test
    void aReadThatHangsIsReportedOnceItsBoundHasPassedAndIsInterrupted() throws Exception {
        CountDownLatch interrupted = new CountDownLatch(1);
        long started = System.nanoTime();

        Read<Long> read = reads.read("database", () -> {
            try {
                Thread.sleep(30_000); // a pool waiting for a connection to a dead database
            } catch (InterruptedException e) {
                interrupted.countDown();
            }
            return 0L;
        }, Duration.ofMillis(200));

        assertThat(read.error()).isEqualTo("database did not answer within PT0.2S");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(BOUND);
        assertThat(interrupted.await(5, TimeUnit.SECONDS)).as("the read was cancelled").isTrue();
    }

    /** The explanation reaches DEPLOYER credentials: it names the log line, and the log line has what the driver said. */
    @Test
    void aReadThatThrowsIsReportedByAReferenceToTheLogThatHoldsItsCause() throws Exception {
        ch.qos.logback.classic.Logger logger = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(Read.class);
        ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> logged = new ch.qos.logback.core.read.ListAppender<>();
        logged.start();
        logger.addAppender(logged);
        try {
            Read<Long> read = reads.read("database", () -> {
                throw new IllegalStateException("cannot get a connection to db-7.internal:3306 as ledger_rw",
                        new java.net.ConnectException("connection refused"));
            }, BOUND);

            assertThat(read.error()).matches("database could not be read \\(error [0-9a-f]{8}; the cause is in the service log\\)")
                    .doesNotContain("db-7", "ledger_rw", "refused", "IllegalStateException");
            String reference = read.error().replaceAll(".*error ([0-9a-f]{8}).*", "$1");
            assertThat(logged.list).singleElement().satisfies(event -> {
                assertThat(event.getFormattedMessage()).contains(reference);
                assertThat(event.getThrowableProxy().getMessage()).contains("db-7.internal:3306");
            });
        } finally {
            logger.detachAppender(logged);
        }
    }

    @Test
    void readsRunOnDaemonThreadsOfTheirOwn() throws Exception {
        Read<Thread> read = reads.read("database", Thread::currentThread, BOUND);

        assertThat(read.value()).isNotSameAs(Thread.currentThread());
        assertThat(read.value().isDaemon()).isTrue();
        assertThat(read.value().getName()).startsWith("rollback-check-read-");
    }

    @Test
    void closingInterruptsReadsStillRunningAndRefusesNewOnes() throws Exception {
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        AtomicReference<Read<Long>> answer = new AtomicReference<>();
        Thread checking = new Thread(() -> {
            try {
                answer.set(reads.read("broker", () -> {
                    running.countDown();
                    try {
                        Thread.sleep(30_000);
                    } catch (InterruptedException e) {
                        interrupted.countDown();
                        throw new IllegalStateException("interrupted while reading", e);
                    }
                    return 0L;
                }, Duration.ofSeconds(30)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        checking.start();
        assertThat(running.await(5, TimeUnit.SECONDS)).isTrue();

        reads.close();

        assertThat(interrupted.await(5, TimeUnit.SECONDS)).as("the running read was interrupted").isTrue();
        checking.join(5_000);
        assertThat(answer.get().error()).as("a read ended by closing is no answer").startsWith("broker could not be read");
        assertThatThrownBy(() -> reads.read("broker", () -> 1L, BOUND)).isInstanceOf(RejectedExecutionException.class);
    }
}

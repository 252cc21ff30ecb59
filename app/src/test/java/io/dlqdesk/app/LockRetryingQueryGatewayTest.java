package io.dlqdesk.app;

import org.axonframework.queryhandling.DefaultQueryGateway;
import org.axonframework.queryhandling.GenericQueryResponseMessage;
import org.axonframework.queryhandling.SimpleQueryBus;
import org.junit.jupiter.api.Test;
import org.springframework.dao.CannotAcquireLockException;
import org.springframework.dao.DataIntegrityViolationException;

import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LockRetryingQueryGatewayTest {

    private final SimpleQueryBus bus = SimpleQueryBus.builder().build();
    private final LockRetryingQueryGateway gateway = new LockRetryingQueryGateway(DefaultQueryGateway.builder().queryBus(bus), 3,
            Duration.ofMillis(1));
    private final AtomicInteger asked = new AtomicInteger();

    /** Answers "page" once it has failed {@code failures} times with {@code failure}. */
    private void answerAfter(int failures, RuntimeException failure) {
        bus.subscribe(String.class.getName(), String.class, query -> {
            if (asked.incrementAndGet() <= failures) {
                throw failure;
            }
            return new GenericQueryResponseMessage<>("page");
        });
    }

    @Test
    void aQueryChosenAsADeadlocksVictimIsAnsweredWhenAskedAgain() {
        answerAfter(2, new CannotAcquireLockException("Deadlock found when trying to get lock"));

        assertThat(gateway.query("list", String.class).join()).isEqualTo("page");
        assertThat(asked).hasValue(3);
    }

    @Test
    void aQueryThatKeepsLosingItsLocksFailsAfterTheLastRetry() {
        answerAfter(10, new CannotAcquireLockException("Deadlock found when trying to get lock"));

        assertThatThrownBy(() -> gateway.query("list", String.class).join()).isInstanceOf(CompletionException.class)
                .hasRootCauseInstanceOf(CannotAcquireLockException.class);
        assertThat(asked).as("the first ask and 3 retries").hasValue(4);
    }

    @Test
    void anyOtherFailureReachesTheCallerAtOnce() {
        answerAfter(1, new DataIntegrityViolationException("not a lock"));

        assertThatThrownBy(() -> gateway.query("list", String.class).join()).hasRootCauseInstanceOf(DataIntegrityViolationException.class);
        assertThat(asked).hasValue(1);
    }
}

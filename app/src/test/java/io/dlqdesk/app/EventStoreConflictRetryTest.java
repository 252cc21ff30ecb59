package io.dlqdesk.app;

import org.axonframework.commandhandling.CommandMessage;
import org.axonframework.commandhandling.GenericCommandMessage;
import org.axonframework.modelling.command.ConcurrencyException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

class EventStoreConflictRetryTest {

    private static final CommandMessage<String> COMMAND = GenericCommandMessage.asCommandMessage("acknowledge");

    private final EventStoreConflictRetry retry = new EventStoreConflictRetry(5, Duration.ofMillis(20), Duration.ofMillis(100));

    @AfterEach
    void close() {
        retry.close();
    }

    @Test
    void thePauseDoublesUpToItsMaximumPlusAJitterOfUpToTheFirstPause() {
        long[] base = {20, 40, 80, 100, 100};
        for (int n = 1; n <= base.length; n++) {
            int retryNumber = n;
            List<Long> delays = IntStream.range(0, 500).mapToObj(i -> retry.delayBefore(retryNumber)).toList();
            assertThat(delays).as("retry %d", n).allSatisfy(delay -> assertThat(delay).isBetween(base[retryNumber - 1],
                    base[retryNumber - 1] + 20));
            assertThat(delays.stream().distinct().count()).as("jittered").isGreaterThan(1);
        }
    }

    @Test
    void aCommandThatLostTheRaceIsDispatchedAgainUpToFiveTimes() {
        ConcurrencyException conflict = new ConcurrencyException("sequence 7 already taken");

        assertThat(retry.scheduleRetry(COMMAND, conflict, failures(1), () -> { })).isTrue();
        assertThat(retry.scheduleRetry(COMMAND, new IllegalStateException("wrapped", conflict), failures(5), () -> { })).isTrue();
        assertThat(retry.scheduleRetry(COMMAND, conflict, failures(6), () -> { })).isFalse();
    }

    @Test
    void aCommandRefusedForAnyOtherReasonFailsAtOnce() {
        assertThat(retry.scheduleRetry(COMMAND, new IllegalStateException("refused by a rule"), failures(1), () -> { })).isFalse();
    }

    /** The failures Axon counted so far for the command, the last one included. */
    @SuppressWarnings("unchecked")
    private static List<Class<? extends Throwable>[]> failures(int count) {
        Class<? extends Throwable>[] causes = new Class[] {ConcurrencyException.class};
        return Collections.nCopies(count, causes);
    }
}

package io.dlqdesk.parked;

import io.dlqdesk.testsupport.TestClock;
import io.dlqdesk.parked.ProcessorStalls.StoredSegment;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.Status;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class ProcessorStallsTest {

    private static final Duration TIMEOUT = Duration.ofMinutes(2);

    private final TestClock clock = TestClock.at(Instant.parse("2026-12-06T10:00:00Z"));
    private final Map<String, Set<Integer>> heldHere = new HashMap<>();
    private final List<StoredSegment> stored = new ArrayList<>();
    private long head = 100;
    private final ProcessorStalls stalls = new ProcessorStalls(() -> heldHere, () -> stored, () -> head, TIMEOUT, clock);

    @Test
    void aSegmentHeldHereStandingStillWhileEventsWaitIsDownAfterTheTimeoutNamingIt() {
        heldHere.put("rollback-facts", Set.of(0));
        stored.add(new StoredSegment("rollback-facts", 0, 40, true));
        assertThat(stalls.health().getStatus()).isEqualTo(Status.UP);

        clock.advance(TIMEOUT.minusSeconds(1));
        assertThat(stalls.health().getStatus()).as("not yet").isEqualTo(Status.UP);

        clock.advance(Duration.ofSeconds(2));
        Health down = stalls.health();
        assertThat(down.getStatus()).isEqualTo(Status.DOWN);
        assertThat(down.getDetails().get("stalled")).asString().contains("rollback-facts/0").contains("position=40")
                .contains("eventStoreHead=100").contains("this instance");
    }

    @Test
    void aSegmentAtTheHeadMayStandStillForEver() {
        heldHere.put("incident-read-models", Set.of(0, 1));
        stored.add(new StoredSegment("incident-read-models", 0, 100, true));
        stored.add(new StoredSegment("incident-read-models", 1, 100, true));
        stalls.health();
        clock.advance(Duration.ofHours(3));

        assertThat(stalls.health().getStatus()).isEqualTo(Status.UP);
    }

    @Test
    void aSegmentThatMovesIsNotStalledHoweverFarBehind() {
        heldHere.put("incident-read-models", Set.of(0));
        for (int round = 0; round < 10; round++) {
            stored.clear();
            stored.add(new StoredSegment("incident-read-models", 0, 10 + round, true));
            assertThat(stalls.health().getStatus()).isEqualTo(Status.UP);
            clock.advance(Duration.ofMinutes(1));
        }
    }

    /** A failing processor releases its claim and backs off: its segment is nobody's most of the time, and still stalled. */
    @Test
    void aSegmentNobodyHoldsIsJudgedByEveryInstanceRunningItsProcessor() {
        heldHere.put("incident-events-kafka-publisher", Set.of());
        stored.add(new StoredSegment("incident-events-kafka-publisher", 0, 40, false));
        stalls.health();
        clock.advance(TIMEOUT.plusSeconds(1));

        Health down = stalls.health();
        assertThat(down.getStatus()).isEqualTo(Status.DOWN);
        assertThat(down.getDetails().get("stalled")).asString().contains("incident-events-kafka-publisher/0").contains("released");
    }

    @Test
    void aSegmentAnotherInstanceHoldsIsThatInstancesToReport() {
        heldHere.put("incident-read-models", Set.of(0));
        stored.add(new StoredSegment("incident-read-models", 0, 100, true));
        stored.add(new StoredSegment("incident-read-models", 1, 40, true));
        stalls.health();
        clock.advance(TIMEOUT.plusSeconds(1));

        assertThat(stalls.health().getStatus()).isEqualTo(Status.UP);
    }

    @Test
    void aProcessorNotRunningHereIsNotJudgedHere() {
        stored.add(new StoredSegment("replay-outbox-on-request", 0, 40, false));
        stalls.health();
        clock.advance(TIMEOUT.plusSeconds(1));

        assertThat(stalls.health().getStatus()).isEqualTo(Status.UP);
    }

    @Test
    void aSegmentThatMovedOnElsewhereStartsOverWhenItComesBack() {
        heldHere.put("incident-read-models", Set.of(0));
        stored.add(new StoredSegment("incident-read-models", 0, 40, true));
        stalls.health();
        clock.advance(Duration.ofMinutes(1));
        heldHere.put("incident-read-models", Set.of());
        stored.set(0, new StoredSegment("incident-read-models", 0, 41, true)); // another instance moved it
        stalls.health();
        clock.advance(Duration.ofMinutes(1).plusSeconds(30));
        heldHere.put("incident-read-models", Set.of(0));

        assertThat(stalls.health().getStatus()).as("unchanged for 90 s only").isEqualTo(Status.UP);
    }

    @Test
    void unreadableTokensJudgeNothing() {
        ProcessorStalls blind = new ProcessorStalls(() -> heldHere, () -> {
            throw new IllegalStateException("database away");
        }, () -> head, TIMEOUT, clock);

        assertThat(blind.health().getStatus()).isEqualTo(Status.UNKNOWN);
    }
}
